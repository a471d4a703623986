import CourtsideHTTP

/// A 101 Switching Protocols head prepared once per server (RFC 6455 §4.2.2 item 5): the status line, `Upgrade`,
/// `Connection` and the server's own response headers are encoded when it is made, so a handshake writes only
/// `Sec-WebSocket-Accept`, the optional `Sec-WebSocket-Protocol` and `Sec-WebSocket-Extensions`, and `Date`.
/// Building the 101 as an `HTTPResponse`, decorating it with the server's headers and encoding it were about a fifth
/// of a spectator's handshake (docs/benchmarks.md, "Handshakes").
///
/// Its bytes are those of `HTTPResponseEncoder.head` for `WebSocketUpgradeRequest.response` with the server's
/// headers added where absent (`HTTPHeaders.addAbsent`, as the server decorates every response), field for field
/// and in the same order; `WebSocketUpgradeHeadTests` compares the two.
public struct WebSocketUpgradeHead: Sendable {
    /// `HTTP/1.1 101 Switching Protocols`, `Upgrade: websocket` and `Connection: Upgrade`, each with its CRLF.
    private let statusAndUpgrade: [UInt8]
    /// The server's fields, each with its CRLF.
    private let serverFields: [UInt8]

    /// What the encoder ends a head with when given an empty date and no `Date` field: `Date: ` CRLF CRLF.
    private static let emptyDateTail = Array("Date: \r\n\r\n".utf8)

    /// Prepares the head for a server that adds `serverHeaders` to its answers. Nil when one of them would change
    /// what a 101 itself says (`Upgrade`, `Connection`, `Date`, a `Sec-WebSocket-` field; the general path, which
    /// keeps the 101's own fields, then serves that server).
    public init?(serverHeaders: HTTPHeaders) {
        for (name, _) in serverHeaders {
            let lowered = name.lowercased()
            if lowered == "upgrade" || lowered == "connection" || lowered == "date"
                || lowered.hasPrefix("sec-websocket-")
            {
                return nil
            }
        }
        var fields = HTTPHeaders()
        fields.reserveCapacity(2 + serverHeaders.count)
        fields.add(name: "Upgrade", value: "websocket")
        fields.add(name: "Connection", value: "Upgrade")
        let bare = Self.encodedWithEmptyDate(fields)
        fields.addAbsent(serverHeaders)
        let whole = Self.encodedWithEmptyDate(fields)
        // The encoder writes the fields as given (framing fields dropped, values sanitized), so the bare head is a
        // prefix of the whole one.
        guard let bare, let whole, whole.starts(with: bare) else { return nil }
        statusAndUpgrade = bare
        serverFields = Array(whole[bare.count...])
    }

    /// The head for one handshake: nil when `subprotocol` or `extensions` holds a CR, LF or NUL (a handler's
    /// extension answer is not checked elsewhere; the general path sanitizes such a value).
    public func encode(acceptingKey key: String, subprotocol: String?, extensions: String?, date: String) -> [UInt8]? {
        if let subprotocol, Self.hasControlBytes(subprotocol) { return nil }
        if let extensions, Self.hasControlBytes(extensions) { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            statusAndUpgrade.count + serverFields.count + 96 + (subprotocol?.utf8.count ?? 0)
                + (extensions?.utf8.count ?? 0) + date.utf8.count)
        bytes.append(contentsOf: statusAndUpgrade)
        bytes.append(contentsOf: "Sec-WebSocket-Accept: ".utf8)
        WebSocketHandshake.appendAcceptValue(forKey: key, to: &bytes)
        bytes.append(contentsOf: [0x0D, 0x0A])
        if let subprotocol { Self.appendField("Sec-WebSocket-Protocol: ", subprotocol, to: &bytes) }
        if let extensions { Self.appendField("Sec-WebSocket-Extensions: ", extensions, to: &bytes) }
        bytes.append(contentsOf: serverFields)
        Self.appendField("Date: ", date, to: &bytes)
        bytes.append(contentsOf: [0x0D, 0x0A])
        return bytes
    }

    private static func appendField(_ nameAndColon: StaticString, _ value: String, to bytes: inout [UInt8]) {
        nameAndColon.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: value.utf8)
        bytes.append(contentsOf: [0x0D, 0x0A])
    }

    private static func hasControlBytes(_ value: String) -> Bool {
        value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    /// The 101's head with `fields`, without its `Date` field and the empty line (nil if the encoder ended it
    /// otherwise, which would be a change this type must not paper over).
    private static func encodedWithEmptyDate(_ fields: HTTPHeaders) -> [UInt8]? {
        let head = HTTPResponseEncoder.head(
            HTTPResponse(status: .switchingProtocols, headers: fields), framing: .none, keepAlive: true, date: "")
        guard head.count >= emptyDateTail.count, head.suffix(emptyDateTail.count).elementsEqual(emptyDateTail) else {
            return nil
        }
        return Array(head.dropLast(emptyDateTail.count))
    }
}
