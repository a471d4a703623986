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
/// Reading is synchronous: the files are a scoreboard's small assets, capped by `maxFileBytes`.
public struct StaticFileServer: Sendable {
    /// The directory as given.
    public let root: String
    /// `realpath(root)`, or nil when the directory does not exist (then nothing is found).
    let resolvedRoot: String?
    /// The largest file sent in one response. The loop reads and holds a whole file, so 4 MiB bounds the memory
    /// and time one request can take; Public/ holds pages, scripts and images well below it. Larger: 500.
    public var maxFileBytes: Int
    /// For HTML: `no-cache` lets the browser store the page but revalidate it every time (a cheap 304 thanks to
    /// the ETag), so a new build of the scoreboard shows on the next load.
    public var htmlCacheControl: String
    /// For everything else. Assets are not content-hashed in their names, so a long lifetime would pair a new
    /// page with old scripts; a minute keeps reloads cheap and bounds how stale an asset can be.
    public var assetCacheControl: String

    public init(
        root: String, maxFileBytes: Int = 4 * 1024 * 1024, htmlCacheControl: String = "no-cache",
        assetCacheControl: String = "public, max-age=60"
    ) {
        self.root = root
        self.resolvedRoot = Self.realPath(root)
        self.maxFileBytes = maxFileBytes
        self.htmlCacheControl = htmlCacheControl
        self.assetCacheControl = assetCacheControl
    }

    /// Answers a request for `head.path`.
    public func respond(to head: HTTPRequestHead) -> StaticFileResult {
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

        let contentType = MediaType.forFileName(path)
        var headers: HTTPHeaders = [
            "Content-Type": contentType,
            "ETag": info.entityTag,
            "Cache-Control": contentType.hasPrefix("text/html") ? htmlCacheControl : assetCacheControl,
            "Last-Modified": HTTPDate.string(epochSeconds: info.modifiedSeconds),
            "X-Content-Type-Options": "nosniff",
        ]
        if ETagMatcher.matches(ifNoneMatch: head.headers.values(for: "If-None-Match"), entityTag: info.entityTag) {
            headers.remove(name: "Content-Type")
            return .response(HTTPResponse(status: .notModified, headers: headers))
        }
        if head.method == .HEAD {
            headers.add(name: "Content-Length", value: String(info.size))
            return .response(HTTPResponse(status: .ok, headers: headers))
        }
        guard let body = Self.readAll(fd, expected: info.size, limit: maxFileBytes) else {
            return .response(.text(.internalServerError, "500 Internal Server Error: read failed\n"))
        }
        return .response(HTTPResponse(status: .ok, headers: headers, body: body))
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
