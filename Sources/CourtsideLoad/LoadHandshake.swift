import CourtsideWebSocket

/// The client side of the opening handshake (RFC 6455 §4.1): the upgrade request, and the checks on the
/// server's response that a client must make before sending frames.
enum LoadHandshake {
    /// The largest response head read before giving up: a 101 response is a few hundred bytes.
    static let maxResponseHeadBytes = 16 * 1024

    /// A fresh `Sec-WebSocket-Key`: 16 random bytes, base64 (RFC 6455 §4.1, point 7).
    static func makeKey(using generator: inout MaskingKeySource) -> String {
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            let value: UInt64 = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }
        return Base64.encode(bytes)
    }

    /// The upgrade request; `extensions` is a `Sec-WebSocket-Extensions` offer (RFC 6455 §9.1) or nil for none;
    /// `authorization` an `Authorization` value (a scorer's `Bearer` token, sent in the header, never the URL).
    static func request(
        target: LoadTarget, key: String, extensions: String? = nil, authorization: String? = nil
    ) -> [UInt8] {
        var head =
            "GET \(target.path) HTTP/1.1\r\n" + "Host: \(target.hostHeader)\r\n" + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n" + "Sec-WebSocket-Key: \(key)\r\n" + "Sec-WebSocket-Version: 13\r\n"
        if let extensions { head += "Sec-WebSocket-Extensions: \(extensions)\r\n" }
        if let authorization { head += "Authorization: \(authorization)\r\n" }
        head += "User-Agent: courtside-load\r\n\r\n"
        return Array(head.utf8)
    }

    /// The index just past the blank line ending the response head, or nil while it is incomplete.
    static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    /// Nil when the head is a valid 101 for `key`; else why not (RFC 6455 §4.1, the client's checks 1 to 6).
    static func validate(head: ArraySlice<UInt8>, key: String) -> LoadClientFailure? {
        switch validate(head: head, key: key, offeredExtensions: false) {
        case .success: return nil
        case .failure(let failure): return failure
        }
    }

    /// Like ``validate(head:key:)``; when extensions were offered the server may select them, and the
    /// `Sec-WebSocket-Extensions` value it sent (nil for none) is the result, for the caller to check against
    /// its offer (RFC 6455 §4.1, point 5).
    static func validate(head: ArraySlice<UInt8>, key: String, offeredExtensions: Bool) -> Result<
        String?, LoadClientFailure
    > {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true).makeIterator()
        guard let statusLine = lines.next() else { return .failure(.handshakeInvalid("empty response")) }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            return .failure(.handshakeInvalid("bad status line"))
        }
        guard status == 101 else { return .failure(.handshakeRefused(status: status)) }
        var headers: [String: String] = [:]
        while let line = lines.next() {
            guard let colon = line.firstIndex(of: ":") else { return .failure(.handshakeInvalid("bad header line")) }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces()
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        func tokens(_ name: String) -> [String] {
            (headers[name] ?? "").split(separator: ",").map { $0.trimmingSpaces().lowercased() }
        }
        guard tokens("upgrade").contains("websocket") else {
            return .failure(.handshakeInvalid("no Upgrade: websocket"))
        }
        guard tokens("connection").contains("upgrade") else {
            return .failure(.handshakeInvalid("no Connection: upgrade"))
        }
        guard headers["sec-websocket-accept"] == WebSocketHandshake.acceptValue(forKey: key) else {
            return .failure(.handshakeInvalid("wrong Sec-WebSocket-Accept"))
        }
        // The server may select only what was offered (§4.1, points 5 and 6); we offer no subprotocol.
        if !offeredExtensions && headers["sec-websocket-extensions"] != nil {
            return .failure(.handshakeInvalid("extension not offered"))
        }
        if headers["sec-websocket-protocol"] != nil { return .failure(.handshakeInvalid("subprotocol not offered")) }
        return .success(headers["sec-websocket-extensions"])
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP optional whitespace, RFC 9110 §5.6.3).
    fileprivate func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
