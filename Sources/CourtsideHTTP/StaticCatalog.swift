#if canImport(Glibc)
    import Glibc
#endif

/// The files under a static root, read once when the server starts (`StaticFileServer`).
///
/// Each file is indexed twice: by the decoded request path that names it without any detour (`/css/a.css`, and
/// `/docs/` for `docs/index.html`), which answers an ordinary request with one dictionary lookup; and by its
/// resolved path, for requests that reach it another way (`//css/a.css`, a symlink inside the root), which go
/// through `StaticFileServer`'s confinement checks first. What the walk skips — hidden names, anything resolving
/// outside the root, non-regular files, files over the limits — is not indexed, and a request for it takes the
/// checked path as before.
struct StaticCatalog: Sendable {
    /// Bounds on what is held in memory; a file beyond them is read from disk per request.
    struct Limits: Sendable {
        /// Files held, at most. `Public/` has a couple of dozen.
        var maxFiles = 4096
        /// Bytes held, at most (identity and gzip forms together): a mistaken `--public` pointing at a big tree
        /// must not take the server's memory.
        var maxTotalBytes = 32 * 1024 * 1024
        /// Directory levels walked; also stops a loop of directory symlinks inside the root.
        var maxDepth = 16
    }

    private(set) var byRequestPath: [String: StaticAsset] = [:]
    private(set) var byResolvedPath: [String: StaticAsset] = [:]
    private var totalBytes = 0
    private var visited: Set<String> = []

    /// An empty catalog: everything is read from disk.
    init() {}

    /// Gives each request path its own copy of its asset with `defaults(path)` added to every answer (the bytes
    /// stay shared). Assets reached by a resolved path keep their answers as they are.
    mutating func addToRequestPaths(_ defaults: (_ path: String) -> HTTPHeaders) {
        for (path, asset) in byRequestPath { byRequestPath[path] = asset.adding(defaults(path)) }
    }

    /// Walks `resolvedRoot` (already `realpath`ed).
    /// - Parameter makeAsset: builds an asset from a file's bytes, its status and resolved path.
    init(
        resolvedRoot: String, maxFileBytes: Int, limits: Limits = Limits(),
        makeAsset: (_ bytes: [UInt8], _ info: FileInfo, _ path: String) -> StaticAsset
    ) {
        walk(
            directory: resolvedRoot, requestPrefix: "/", depth: 0, root: resolvedRoot, maxFileBytes: maxFileBytes,
            limits: limits, makeAsset: makeAsset)
        visited = []
    }

    private mutating func walk(
        directory: String, requestPrefix: String, depth: Int, root: String, maxFileBytes: Int, limits: Limits,
        makeAsset: (_ bytes: [UInt8], _ info: FileInfo, _ path: String) -> StaticAsset
    ) {
        guard depth <= limits.maxDepth, visited.insert(directory).inserted else { return }
        for name in Self.names(in: directory) where !name.hasPrefix(".") {
            guard let resolved = StaticFileServer.realPath(directory + "/" + name),
                resolved == root || resolved.hasPrefix(root == "/" ? "/" : root + "/"),
                let info = StaticFileServer.status(of: resolved)
            else { continue }
            if info.isDirectory {
                walk(
                    directory: resolved, requestPrefix: requestPrefix + name + "/", depth: depth + 1, root: root,
                    maxFileBytes: maxFileBytes, limits: limits, makeAsset: makeAsset)
                continue
            }
            guard info.isRegularFile else { continue }
            let asset: StaticAsset
            if let known = byResolvedPath[resolved] {
                asset = known
            } else {
                guard info.size <= maxFileBytes, byResolvedPath.count < limits.maxFiles,
                    totalBytes + info.size <= limits.maxTotalBytes, let bytes = Self.read(resolved, info: info)
                else { continue }
                asset = makeAsset(bytes, info, resolved)
                let held = asset.identity.body.count + (asset.gzip?.body.count ?? 0)
                guard totalBytes + held <= limits.maxTotalBytes else { continue }
                totalBytes += held
                byResolvedPath[resolved] = asset
            }
            byRequestPath[requestPrefix + name] = asset
            if name == "index.html" { byRequestPath[requestPrefix] = asset }
        }
    }

    /// The entry names of a directory, without `.` and `..`; empty when it cannot be read.
    private static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// A regular file's bytes, opened as `StaticFileServer` opens files (no symlink, no blocking on a FIFO).
    private static func read(_ path: String, info: FileInfo) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return StaticFileServer.readAll(fd, expected: info.size, limit: info.size)
    }
}
