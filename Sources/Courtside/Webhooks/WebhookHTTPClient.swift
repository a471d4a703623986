import CourtsideNet
import Foundation

/// One delivery attempt over a blocking socket on the calling delivery thread: resolve (once, through the address
/// policy), connect to the checked address, send the POST (through TLS for `https`, the certificate verified for the
/// URL's host), and read the status line. The whole attempt has one deadline; at most `maxResponseBytes` of the
/// answer are read (the receiver's body is not wanted, only its status), and a 3xx is a failure: redirects are not
/// followed, since a redirect could point past the address policy.
struct WebhookHTTPClient: Sendable {
    /// How long one attempt may take, connecting and the TLS handshake included.
    var timeoutMs: Int64 = 10_000
    /// The most bytes of a response read (the status line and headers that fit).
    var maxResponseBytes = 4_096
    var policy: WebhookAddressPolicy
    /// The client context for `https` receivers (verifying against the system's trust store or `--webhook-ca`).
    var tls: TLSContext?

    /// Posts `body` with `headers` to `url`; returns the status (2xx) or throws why the attempt failed.
    func post(_ url: WebhookURL, headers: [(String, String)], body: [UInt8]) throws(WebhookDeliveryError) -> Int {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMs) * 1_000_000
        let address = try policy.resolve(host: url.host, port: url.port)
        let socket = try WebhookSocket(connectingTo: address, deadline: deadline, timeoutMs: timeoutMs)
        defer { socket.close() }
        var request = "POST \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        request += "User-Agent: Courtside-Webhooks\r\nContent-Type: application/json\r\n"
        request += "Content-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8) + body
        var response: [UInt8] = []
        if url.isTLS {
            guard let tls else { throw .tls("no TLS client context (see the server's log at start)") }
            try exchangeTLS(bytes, over: socket, context: tls, host: url.host, response: &response)
        } else {
            try socket.send(bytes)
            while response.count < maxResponseBytes, try Self.status(in: response) == nil {
                let chunk = try socket.receive(upTo: maxResponseBytes - response.count)
                if chunk.isEmpty { break }
                response += chunk
            }
        }
        if let status = try Self.status(in: response) { return try Self.accept(status) }
        throw .badResponse(response.isEmpty ? "the receiver closed without answering" : "no status line")
    }

    /// The request through a TLS session (`TLSConnection` over memory BIOs, pumped here over the blocking socket):
    /// the request is queued before the handshake and written as soon as it completes.
    private func exchangeTLS(
        _ request: [UInt8], over socket: WebhookSocket, context: TLSContext, host: String, response: inout [UInt8]
    ) throws(WebhookDeliveryError) {
        let session: TLSConnection
        do {
            session = try TLSConnection(context: context, serverName: host)
            try session.writePlaintext(request)
        } catch {
            throw .tls("\(error)")
        }
        if case .failed(let error) = session.handshake() { throw .tls("\(error)") }
        while response.count < maxResponseBytes, try Self.status(in: response) == nil {
            try socket.send(session.takeCiphertext())
            let chunk = try socket.receive(upTo: 16 * 1024)
            if chunk.isEmpty {
                if case .failed(let error) = session.receiveEndOfStream() { throw .tls("\(error)") }
                return
            }
            session.receive(ciphertext: chunk)
            switch session.readPlaintext(into: &response) {
            case .needsMoreData: continue
            case .closed: return
            case .failed(let error):
                try? socket.send(session.takeCiphertext())
                throw .tls("\(error)")
            }
        }
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
}
