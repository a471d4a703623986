import Foundation

/// One delivery attempt over a blocking socket on the calling delivery thread: resolve (once, through the address
/// policy), connect to the checked address, send the POST, and read the status line. The whole attempt has one
/// deadline; at most `maxResponseBytes` of the answer are read (the receiver's body is not wanted, only its status),
/// and a 3xx is a failure: redirects are not followed, since a redirect could point past the address policy.
struct WebhookHTTPClient: Sendable {
    /// How long one attempt may take, connecting included.
    var timeoutMs: Int64 = 10_000
    /// The most bytes of a response read (the status line and headers that fit).
    var maxResponseBytes = 4_096
    var policy: WebhookAddressPolicy

    /// Posts `body` with `headers` to `url`; returns the status (2xx) or throws why the attempt failed.
    func post(_ url: WebhookURL, headers: [(String, String)], body: [UInt8]) throws(WebhookDeliveryError) -> Int {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMs) * 1_000_000
        let address = try policy.resolve(host: url.host, port: url.port)
        let socketFD = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw .socket("socket", errno: errno) }
        defer { close(socketFD) }
        _ = fcntl(socketFD, F_SETFL, fcntl(socketFD, F_GETFL) | O_NONBLOCK)
        let connected = address.storage.withUnsafeBytes { raw in
            connect(
                socketFD, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(address.storage.count))
        }
        if connected != 0 {
            guard errno == EINPROGRESS else { throw .socket("connect to \(address.text)", errno: errno) }
            try wait(socketFD, for: Int16(POLLOUT), until: deadline)
            var problem: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socketFD, SOL_SOCKET, SO_ERROR, &problem, &length)
            guard problem == 0 else { throw .socket("connect to \(address.text)", errno: problem) }
        }
        var request = "POST \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        request += "User-Agent: Courtside-Webhooks\r\nContent-Type: application/json\r\n"
        request += "Content-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                sent += count
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                try wait(socketFD, for: Int16(POLLOUT), until: deadline)
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                throw .socket("send", errno: errno)
            }
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1_024)
        while response.count < maxResponseBytes {
            if let status = try Self.status(in: response) { return try Self.accept(status) }
            let count = buffer.withUnsafeMutableBytes {
                recv(socketFD, $0.baseAddress, min($0.count, maxResponseBytes - response.count), 0)
            }
            if count > 0 {
                response += buffer[0..<count]
            } else if count == 0 {
                break
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(socketFD, for: Int16(POLLIN), until: deadline)
            } else if errno != EINTR {
                throw .socket("recv", errno: errno)
            }
        }
        if let status = try Self.status(in: response) { return try Self.accept(status) }
        throw .badResponse(response.isEmpty ? "the receiver closed without answering" : "no status line")
    }

    private static func accept(_ status: Int) throws(WebhookDeliveryError) -> Int {
        guard (200..<300).contains(status) else { throw .status(status) }
        return status
    }

    /// The status of a complete status line (RFC 9112 §4: `HTTP/1.x NNN reason CRLF`), nil until one is in.
    static func status(in response: [UInt8]) throws(WebhookDeliveryError) -> Int? {
        guard let end = response.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: response[..<end], as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]) else {
            throw .badResponse("not an HTTP/1.x status line")
        }
        return status
    }

    private func wait(_ socketFD: Int32, for events: Int16, until deadline: UInt64) throws(WebhookDeliveryError) {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw .timedOut(ms: timeoutMs) }
            var entry = pollfd(fd: socketFD, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(max((deadline - now) / 1_000_000, 1)))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw .socket("poll", errno: errno) }
        }
    }
}
