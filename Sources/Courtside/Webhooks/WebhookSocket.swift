import Foundation

/// A non-blocking TCP socket used as a blocking one with a deadline: every wait is a `poll(2)` bounded by the
/// attempt's deadline, so a receiver that accepts and then says nothing costs one attempt's timeout, never a hang.
/// Owned by one delivery thread for one attempt.
struct WebhookSocket {
    let descriptor: Int32
    /// `DispatchTime` uptime nanoseconds at which the attempt gives up.
    let deadline: UInt64
    let timeoutMs: Int64

    /// Connects to `address` (non-blocking `connect`, then waiting for writability and `SO_ERROR`).
    init(connectingTo address: WebhookSocketAddress, deadline: UInt64, timeoutMs: Int64) throws(WebhookDeliveryError) {
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .socket("socket", errno: errno) }
        self.descriptor = descriptor
        self.deadline = deadline
        self.timeoutMs = timeoutMs
        do throws(WebhookDeliveryError) {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let connected = address.storage.withUnsafeBytes { raw in
                connect(
                    descriptor, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self),
                    socklen_t(address.storage.count))
            }
            if connected != 0 {
                guard errno == EINPROGRESS else { throw .socket("connect to \(address.text)", errno: errno) }
                try wait(for: Int16(POLLOUT))
                var problem: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &problem, &length)
                guard problem == 0 else { throw .socket("connect to \(address.text)", errno: problem) }
            }
        } catch {
            Foundation.close(descriptor)
            throw error
        }
    }

    func close() {
        Foundation.close(descriptor)
    }

    /// Sends every byte (waiting for room as long as the deadline allows).
    func send(_ bytes: [UInt8]) throws(WebhookDeliveryError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                try wait(for: Int16(POLLOUT))
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                throw .socket("send", errno: errno)
            }
        }
    }

    /// The next bytes received, at most `limit`; empty at the end of the stream.
    func receive(upTo limit: Int) throws(WebhookDeliveryError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(limit, 1))
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(buffer[0..<count]) }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLIN))
            } else if errno != EINTR {
                throw .socket("recv", errno: errno)
            }
        }
    }

    private func wait(for events: Int16) throws(WebhookDeliveryError) {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw .timedOut(ms: timeoutMs) }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(max((deadline - now) / 1_000_000, 1)))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw .socket("poll", errno: errno) }
        }
    }
}
