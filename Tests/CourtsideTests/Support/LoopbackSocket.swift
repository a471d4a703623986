import Foundation
import Glibc

/// Errors of the test clients. Every read has a timeout, so a hung server fails a test instead of the run.
struct ClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A blocking loopback TCP socket with a receive timeout and a buffer of unread bytes: the base of the HTTP,
/// WebSocket and SSE test clients.
final class LoopbackSocket {
    let fd: Int32
    private(set) var buffer: [UInt8] = []
    private var closed = false

    /// Connects to the loopback port; `receiveBufferBytes` shrinks the kernel's receive buffer (before connecting,
    /// so the advertised window stays small) to make a slow reader.
    init(port: Int, timeout: Duration = .seconds(5), receiveBufferBytes: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ClientError("socket: errno \(errno)") }
        if var size = receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        Self.setReceiveTimeout(fd, timeout)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            throw ClientError("connect: errno \(errno)")
        }
    }

    /// Takes a connected socket the caller made (`InProcessConnection`: the test's end of a pair the server serves).
    init(connected fd: Int32, timeout: Duration = .seconds(5)) {
        self.fd = fd
        Self.setReceiveTimeout(fd, timeout)
    }

    private static func setReceiveTimeout(_ fd: Int32, _ timeout: Duration) {
        var tv = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { shutdownSocket() }

    func shutdownSocket() {
        guard !closed else { return }
        closed = true
        close(fd)
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written >= 0 else { throw ClientError("send: errno \(errno)") }
            offset += written
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads more bytes; false at end of stream.
    @discardableResult
    func fill(_ what: String) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == ECONNRESET { return false }
            if errno == EAGAIN { throw ClientError("timed out waiting for \(what)") }
            throw ClientError("recv \(what): errno \(errno)")
        }
    }

    /// Whether bytes arrive (or the peer closes) within `milliseconds`, without reading them.
    func isReadable(withinMilliseconds milliseconds: Int32) -> Bool {
        if !buffer.isEmpty { return true }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    func take(_ count: Int, _ what: String) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill(what) else { throw ClientError("closed while waiting for \(what)") }
        }
        let bytes = Array(buffer.prefix(count))
        buffer.removeFirst(count)
        return bytes
    }

    /// Bytes up to and including `delimiter`.
    func take(through delimiter: [UInt8], _ what: String) throws -> [UInt8] {
        while true {
            if let range = firstRange(of: delimiter) {
                let bytes = Array(buffer[..<range.upperBound])
                buffer.removeFirst(range.upperBound)
                return bytes
            }
            guard try fill(what) else { throw ClientError("closed while waiting for \(what)") }
        }
    }

    /// Whether the peer closed the connection (reads until end of stream or the timeout).
    func waitForEndOfStream() throws -> Bool {
        while try fill("end of stream") { buffer.removeAll() }
        return true
    }

    private func firstRange(of delimiter: [UInt8]) -> Range<Int>? {
        guard buffer.count >= delimiter.count else { return nil }
        for start in 0...(buffer.count - delimiter.count)
        where buffer[start..<start + delimiter.count].elementsEqual(delimiter) {
            return start..<start + delimiter.count
        }
        return nil
    }
}
