#if canImport(Glibc)
    import Glibc
#endif

/// What `StaticFileServer` made of a request.
public enum StaticFileResult: Sendable, Equatable {
    /// Send this (a file, a 304, a redirect to the directory's slash, 403, 405, or 500 for an oversized file).
    case response(HTTPResponse)
    /// No file at this path: the application may route the request elsewhere, or answer 404.
    case notFound

    /// The response, with a plain 404 for `.notFound`.
    public var response: HTTPResponse {
        switch self {
        case .response(let response): response
        case .notFound: .text(.notFound, "404 Not Found\n")
        }
    }
}

/// Serves files under one directory for GET and HEAD, and nothing outside it.
///
/// Confinement, in order: dot segments (`..`, `.`, also as `%2e%2e`, which the parser has decoded) → 403;
/// encoded slashes and NUL never reach here (the parser refuses them, and NUL is checked again); hidden names
/// (a segment starting with `.`, such as `.git`) → not found; the path is resolved with `realpath` and must lie
/// under the resolved root, so a symlink pointing out → 403; only regular files are opened, with `O_NOFOLLOW`
/// and `O_NONBLOCK` (a FIFO must not block the loop), and checked again with `fstat` after opening.
///
/// The files are read once, when the server is made (`StaticCatalog`): a scoreboard's small assets, each capped by
/// `maxFileBytes`. Text types are gzipped then too, and sent as `Content-Encoding: gzip` to a client whose
/// `Accept-Encoding` allows it (`AcceptEncoding`). A request answers from memory; changing a file needs a new
/// server (a restart). A file the catalog does not hold (added later, or over its limits) is read synchronously
/// per request, uncompressed, after the same checks.
public struct StaticFileServer: Sendable {
    /// The directory as given.
    public let root: String
    /// `realpath(root)`, or nil when the directory does not exist (then nothing is found).
    let resolvedRoot: String?
    /// The largest file sent in one response. The loop reads and holds a whole file, so 4 MiB bounds the memory
    /// and time one request can take; Public/ holds pages, scripts and images well below it. Larger: 500.
    public let maxFileBytes: Int
    /// For HTML: `no-cache` lets the browser store the page but revalidate it every time (a cheap 304 thanks to
    /// the ETag), so a new build of the scoreboard shows on the next load.
    public let htmlCacheControl: String
    /// For everything else. Assets are not content-hashed in their names, so a long lifetime would pair a new
    /// page with old scripts; a minute keeps reloads cheap and bounds how stale an asset can be.
    public let assetCacheControl: String
    /// The files read at start-up.
    private(set) var catalog: StaticCatalog

    public init(
        root: String, maxFileBytes: Int = 4 * 1024 * 1024, htmlCacheControl: String = "no-cache",
        assetCacheControl: String = "public, max-age=60"
    ) {
        self.root = root
        self.resolvedRoot = Self.realPath(root)
        self.maxFileBytes = maxFileBytes
        self.htmlCacheControl = htmlCacheControl
        self.assetCacheControl = assetCacheControl
        if let resolvedRoot {
            catalog = StaticCatalog(resolvedRoot: resolvedRoot, maxFileBytes: maxFileBytes) { bytes, info, path in
                Self.asset(
                    bytes: bytes, info: info, path: path, htmlCacheControl: htmlCacheControl,
                    assetCacheControl: assetCacheControl, compress: true)
            }
        } else {
            catalog = StaticCatalog()
        }
    }

    /// This server with `responseHeaders(path)` already in the answers of the files it holds, for each path that
    /// names one (where an answer has no field of that name: as `HTTPServer.Configuration.responseHeaders` decorates
    /// every answer). Those answers then go out with their heads encoded once, without being decorated per request
    /// (`HTTPPreparedHead`). The server configuration does this with its own `responseHeaders`.
    public func preparing(responseHeaders: (_ path: String) -> HTTPHeaders) -> StaticFileServer {
        var prepared = self
        prepared.catalog.addToRequestPaths(responseHeaders)
        return prepared
    }

    /// Answers a request for `head.path`.
    public func respond(to head: HTTPRequestHead) -> StaticFileResult {
        // The ordinary request: a path the catalog knows as it is, answered without touching the file system.
        if let asset = catalog.byRequestPath[head.path] { return serve(asset, head: head) }
        guard let resolvedRoot, head.path.hasPrefix("/") else { return .notFound }
        let forbidden = StaticFileResult.response(.text(.forbidden, "403 Forbidden\n"))
        if head.path.utf8.contains(0) { return forbidden }
        let segments = HTTPPath.segments(head.path).filter { !$0.isEmpty }
        if segments.contains(where: { $0 == "." || $0 == ".." }) { return forbidden }
        if segments.contains(where: { $0.hasPrefix(".") }) { return .notFound }

        let requested = segments.isEmpty ? resolvedRoot : resolvedRoot + "/" + segments.joined(separator: "/")
        guard let resolved = Self.realPath(requested) else { return .notFound }
        guard isInsideRoot(resolved, root: resolvedRoot) else { return forbidden }
        guard var info = Self.status(of: resolved) else { return .notFound }

        var filePath = resolved
        if info.isDirectory {
            // Relative links in index.html resolve against the URL, so `/dir` must become `/dir/` first.
            if !head.path.hasSuffix("/") {
                var location = "/" + segments.map(HTTPPath.encodeSegment).joined(separator: "/") + "/"
                if let query = head.query { location += "?" + query }
                return .response(
                    HTTPResponse(status: .movedPermanently, headers: ["Location": location], body: []))
            }
            guard let index = Self.realPath(resolved + "/index.html") else { return .notFound }
            guard isInsideRoot(index, root: resolvedRoot) else { return forbidden }
            guard let indexInfo = Self.status(of: index) else { return .notFound }
            filePath = index
            info = indexInfo
        }
        guard info.isRegularFile else { return info.isDirectory ? .notFound : forbidden }

        guard head.method == .GET || head.method == .HEAD else {
            return .response(
                .text(.methodNotAllowed, "405 Method Not Allowed\n", headers: ["Allow": "GET, HEAD"]))
        }
        return serveFile(at: filePath, head: head)
    }

    private func serveFile(at path: String, head: HTTPRequestHead) -> StaticFileResult {
        if let asset = catalog.byResolvedPath[path] { return serve(asset, head: head) }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? .notFound : .response(.text(.forbidden, "403 Forbidden\n")) }
        defer { close(fd) }
        var raw = stat()
        guard fstat(fd, &raw) == 0 else { return .notFound }
        let info = FileInfo(raw)
        guard info.isRegularFile else { return .response(.text(.forbidden, "403 Forbidden\n")) }
        guard info.size <= maxFileBytes else {
            return .response(.text(.internalServerError, "500 Internal Server Error: file too large to serve\n"))
        }
        guard let bytes = Self.readAll(fd, expected: info.size, limit: maxFileBytes) else {
            return .response(.text(.internalServerError, "500 Internal Server Error: read failed\n"))
        }
        let asset = Self.asset(
            bytes: bytes, info: info, path: path, htmlCacheControl: htmlCacheControl,
            assetCacheControl: assetCacheControl, compress: false)
        return serve(asset, head: head)
    }

    /// GET, HEAD or a 304 from an asset's representation for this request; 405 for other methods.
    private func serve(_ asset: StaticAsset, head: HTTPRequestHead) -> StaticFileResult {
        guard head.method == .GET || head.method == .HEAD else {
            return .response(
                .text(.methodNotAllowed, "405 Method Not Allowed\n", headers: ["Allow": "GET, HEAD"]))
        }
        let variant = asset.variant(for: head)
        // Only a revalidation carries the field: a first fetch skips collecting and comparing tags.
        if head.headers.contains("If-None-Match"),
            ETagMatcher.matches(ifNoneMatch: head.headers.values(for: "If-None-Match"), entityTag: variant.entityTag)
        {
            return .response(HTTPResponse(status: .notModified, headers: variant.notModifiedHeaders))
        }
        return .response(head.method == .HEAD ? variant.head : variant.ok)
    }

    private static func asset(
        bytes: [UInt8], info: FileInfo, path: String, htmlCacheControl: String, assetCacheControl: String,
        compress: Bool
    ) -> StaticAsset {
        let contentType = MediaType.forFileName(path)
        return StaticAsset(
            bytes: bytes, info: info, contentType: contentType,
            cacheControl: contentType.hasPrefix("text/html") ? htmlCacheControl : assetCacheControl,
            compress: compress)
    }

    private func isInsideRoot(_ path: String, root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func status(of path: String) -> FileInfo? {
        var raw = stat()
        guard stat(path, &raw) == 0 else { return nil }
        return FileInfo(raw)
    }

    /// Reads up to `limit` bytes; a file that grew meanwhile is cut at `limit`, one that shrank ends at EOF.
    static func readAll(_ fd: Int32, expected: Int, limit: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: min(expected, limit))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}

/// The parts of `stat` the server uses.
struct FileInfo: Sendable {
    var mode: UInt32
    var size: Int
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    init(_ raw: stat) {
        mode = UInt32(raw.st_mode)
        size = Int(raw.st_size)
        modifiedSeconds = Int(raw.st_mtim.tv_sec)
        modifiedNanoseconds = Int(raw.st_mtim.tv_nsec)
    }

    var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }

    /// A strong validator from size and modification time to the nanosecond (RFC 9110 §8.8.3): any rewrite
    /// that a browser could observe changes one of them, and computing it costs no read.
    var entityTag: String {
        "\"\(String(size, radix: 16))-\(String(modifiedSeconds, radix: 16))-\(String(modifiedNanoseconds, radix: 16))\""
    }
}

/// `If-None-Match` evaluation (RFC 9110 §13.1.2): `*` or any listed tag equal under weak comparison.
enum ETagMatcher {
    static func matches(ifNoneMatch values: [String], entityTag: String) -> Bool {
        let ours = opaque(entityTag)
        for value in values {
            for candidate in value.split(separator: ",") {
                let tag = candidate.trimmingHTTPWhitespace()
                if tag == "*" || opaque(tag) == ours { return true }
            }
        }
        return false
    }

    /// The tag without its weakness prefix, for weak comparison.
    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}
