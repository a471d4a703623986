import CourtsideTLS

/// One HTTP/1.1 request with `Connection: close` over a ``BlockingStream``, read to the end of the stream, bounded
/// in size (1 MiB) and time (30 s): the games a tap-to-screen run makes and the documents a relay run polls.
enum LoadHTTP {
    struct Response: Sendable {
        /// The status line, without its line end.
        var status: String
        var body: [UInt8]

        var code: Int? { Int(status.split(separator: " ").dropFirst().first ?? "") }
    }

    static let maxResponseBytes = 1 << 20

    /// Sends `method path` (with a bearer `authorization` and a JSON `body` when given) and reads the answer.
    static func request(
        _ method: String, _ path: String, at target: LoadTarget, tls: TLSContext?, authorization: String? = nil,
        body: String? = nil
    ) -> Result<Response, LoadClientFailure> {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(target.hostHeader)\r\n"
        if let authorization { head += "Authorization: Bearer \(authorization)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        let request = head + "Connection: close\r\n\r\n" + (body ?? "")
        let stream: BlockingStream
        switch BlockingStream.open(to: target, tls: tls) {
        case .success(let opened): stream = opened
        case .failure(let failure): return .failure(failure)
        }
        if let failure = stream.write(Array(request.utf8)) { return .failure(failure) }
        var response: [UInt8] = []
        let deadline = LoadSocket.now() + LoadSocket.nanoseconds(30)
        // Read to the end of the stream (`Connection: close`).
        reading: while LoadSocket.now() < deadline && response.count < maxResponseBytes {
            switch stream.read(timeout: 1_000) {
            case .success(let bytes): response += bytes
            case .failure: break reading
            }
        }
        guard let headEnd = LoadHandshake.headEnd(in: response) else {
            return .failure(.handshakeInvalid("\(method) \(path): no complete response"))
        }
        // By bytes: in a Swift String "\r\n" is one Character, never equal to "\r".
        let statusLine = response[..<headEnd].prefix { $0 != UInt8(ascii: "\r") }
        return .success(
            Response(status: String(decoding: statusLine, as: UTF8.self), body: Array(response[headEnd...])))
    }
}
