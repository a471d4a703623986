import CourtsideNet
import Glibc

/// Errors of the blocking test client; every read has a timeout, so a hung server fails the test instead of the run.
enum TestClientError: Error, CustomStringConvertible {
    case connect(errno: Int32)
    case timedOut(String)
    case closed(String)
    case malformed(String)

    var description: String {
        switch self {
        case .connect(let errno): return "connect failed: errno \(errno)"
        case .timedOut(let what): return "timed out waiting for \(what)"
        case .closed(let what): return "connection closed while waiting for \(what)"
        case .malformed(let what): return "malformed \(what)"
        }
    }
}

/// A blocking TCP client with receive/send timeouts, written for the tests (loopback only).
final class TestClient {
    let fd: Int32
    /// Received bytes not consumed yet.
    var buffer: [UInt8] = []
    /// Optional byte transform for TLS (set by `TLSTestClient`).
    var readHook: (() throws -> [UInt8])?
    var writeHook: (([UInt8]) throws -> Void)?

    /// - Parameter receiveBufferBytes: `SO_RCVBUF`, set before connecting (so the advertised window stays small): a
    ///   client that never reads then fills the server's path quickly.
    init(port: Int, host: String = "127.0.0.1", timeout: Duration = .seconds(5), receiveBufferBytes: Int? = nil) throws
    {
        let v6 = host.contains(":")
        fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestClientError.connect(errno: errno) }
        var tv = timeval(
            tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferBytes.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let rc: Int32
        if v6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        if rc != 0 {
            let err = errno
            close(fd)
            throw TestClientError.connect(errno: err)
        }
    }

    private var isClosed = false

    deinit {
        closeSocket()
    }

    /// Closes our end (the server's linger ends as soon as it sees our FIN).
    func closeSocket() {
        guard !isClosed else { return }
        isClosed = true
        close(fd)
    }

    // MARK: raw bytes

    func send(_ bytes: [UInt8]) throws {
        if let writeHook { return try writeHook(bytes) }
        try sendRaw(bytes)
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func sendRaw(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw TestClientError.closed("send (errno \(errno))")
            }
            offset += written
        }
    }

    /// One read of raw socket bytes: empty at EOF; throws on timeout.
    func readRaw(_ what: String) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(chunk[0..<count]) }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw TestClientError.timedOut(what) }
            if errno == ECONNRESET { return [] }
            throw TestClientError.closed("\(what) (errno \(errno))")
        }
    }

    /// Reads more bytes into `buffer`; false at EOF.
    @discardableResult
    func fill(_ what: String) throws -> Bool {
        let bytes = try readHook?() ?? readRaw(what)
        if bytes.isEmpty { return false }
        buffer += bytes
        return true
    }

    func take(_ count: Int, _ what: String) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill(what) else { throw TestClientError.closed(what) }
        }
        let bytes = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Reads until the peer closes; returns everything not consumed.
    func readToEnd() throws -> [UInt8] {
        for _ in 0..<100_000 {
            guard try fill("end of stream") else { break }
        }
        let bytes = buffer
        buffer = []
        return bytes
    }

    /// Whether the server closed the connection (EOF or reset) within the receive timeout, ignoring data.
    func waitForClose() throws -> Bool {
        for _ in 0..<100_000 {
            guard try fill("close") else { return true }
        }
        return false
    }

    // MARK: HTTP

    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Reads one response; the body by Content-Length (none for HEAD or 1xx/204/304), chunked is not decoded.
    func readResponse(head: Bool = false) throws -> Response {
        var end: Int?
        for _ in 0..<10_000 {
            if let index = Self.find([13, 10, 13, 10], in: buffer) {
                end = index
                break
            }
            guard try fill("response head") else { throw TestClientError.closed("response head") }
        }
        guard let end else { throw TestClientError.malformed("response head") }
        let headText = String(decoding: buffer[0..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw TestClientError.malformed(statusLine) }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: " "))
        }
        var response = Response(status: status, headers: headers, body: [])
        if !head && status >= 200 && status != 204 && status != 304,
            let length = response.header("Content-Length").flatMap(Int.init)
        {
            response.body = try take(length, "response body")
        }
        return response
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        guard let first = firstIndex(where: { !characters.contains($0) }),
            let last = lastIndex(where: { !characters.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
