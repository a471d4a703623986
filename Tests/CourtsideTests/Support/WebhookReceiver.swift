import Foundation
import Glibc
import Synchronization

/// A loopback HTTP receiver for webhook tests: records each request's `webhook-id` and body and answers 200. One
/// thread accepts and serves connections one at a time (the webhook client sends `Connection: close`); every read
/// has a timeout, and `stop()` ends the thread.
final class WebhookReceiver: Sendable {
    struct Delivery: Sendable, Hashable {
        let id: String
        let body: String
        let at: ContinuousClock.Instant
    }

    let port: Int
    private let listener: Int32
    private let received = Mutex<[Delivery]>([])
    private let stopped = Atomic<Bool>(false)

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw ClientError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw ClientError("bind: errno \(errno)")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        // accept wakes every 200 ms to see whether the receiver stopped.
        var tv = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in run() }
        thread.name = "webhook-receiver"
        thread.start()
    }

    deinit {
        stop()
        close(listener)
    }

    var url: String { "http://127.0.0.1:\(port)/hook" }

    /// What arrived, in arrival order.
    var deliveries: [Delivery] { received.withLock { $0 } }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func run() {
        while !stopped.load(ordering: .relaxed) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            var tv = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            if let delivery = read(connection) {
                received.withLock { $0.append(delivery) }
                let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                _ = answer.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            close(connection)
        }
    }

    /// Reads one request (head, then `Content-Length` bytes of body), at most 1 MB.
    private func read(_ connection: Int32) -> Delivery? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < 1 << 20 {
            let text = String(decoding: bytes, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let lines = text[..<end.lowerBound].split(separator: "\r\n")
                func header(_ name: String) -> String? {
                    lines.first { $0.lowercased().hasPrefix(name + ":") }.map {
                        $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
                    }
                }
                let length = Int(header("content-length") ?? "0") ?? 0
                let bodyStart = text.utf8.distance(from: text.startIndex, to: end.upperBound)
                if bytes.count - bodyStart >= length, let id = header("webhook-id") {
                    return Delivery(
                        id: id, body: String(decoding: bytes[bodyStart..<bodyStart + length], as: UTF8.self),
                        at: .now)
                }
            }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            bytes += chunk[0..<count]
        }
        return nil
    }
}
