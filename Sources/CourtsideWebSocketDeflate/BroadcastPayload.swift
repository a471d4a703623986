import CourtsideWebSocket

/// One data message to publish, held as bytes: its payload and its plain frame (unfragmented, unmasked, RSV1
/// clear), the frame built once when the value is made.
///
/// A channel publishing it compresses `payload` once per agreed window and queues `frame` itself on every plain
/// subscriber, so an application that already holds a message as bytes (a presenter's canonical JSON) never has
/// it turned into a `String`, copied or framed again on the way to the sockets; the same `frame` can also be sent
/// on its own (a catch-up, `WebSocket.send(preEncodedFrame:)`).
public struct BroadcastPayload: Sendable {
    /// `.text` or `.binary`.
    public let opcode: WebSocketOpcode
    /// The message's bytes (UTF-8 for text).
    public let payload: [UInt8]
    /// `payload` as one complete frame of `opcode` (RFC 6455 §5.2), as a plain subscriber receives it.
    public let frame: [UInt8]

    /// A text message from bytes: they must be UTF-8 (RFC 6455 §5.6: a client fails the connection with 1007 on
    /// anything else), so they are checked once here rather than by every subscriber's client.
    public init(text utf8: [UInt8]) throws(BroadcastPayloadError) {
        var validator = UTF8Validator()
        if let offset = validator.validate(utf8) { throw .invalidUTF8(offset: offset) }
        guard validator.isAtCharacterBoundary else { throw .invalidUTF8(offset: utf8.count) }
        self.init(checkedOpcode: .text, payload: utf8)
    }

    /// A binary message.
    public init(binary bytes: [UInt8]) {
        self.init(checkedOpcode: .binary, payload: bytes)
    }

    /// A message received or built as a `WebSocketMessage` (its text is UTF-8 already).
    public init(_ message: WebSocketMessage) {
        self.init(checkedOpcode: message.opcode, payload: message.payload)
    }

    private init(checkedOpcode opcode: WebSocketOpcode, payload: [UInt8]) {
        self.opcode = opcode
        self.payload = payload
        self.frame = WebSocketFrameEncoder.frame(opcode: opcode, payload: payload)
    }
}

/// Why bytes cannot be published as a text message.
public enum BroadcastPayloadError: Error, Hashable, Sendable {
    /// The bytes are not UTF-8: the first bad byte is at `offset` (the length when a character is cut short).
    case invalidUTF8(offset: Int)
}
