import CourtsideBytes
import CourtsideWebSocket

extension EncodedMessage {
    /// The message as one WebSocket text frame (unfragmented, unmasked, RSV1 clear: RFC 6455 §5.2), built on the
    /// first call and kept: `BroadcastChannel.publish(_:)` queues it on every plain subscriber, and every catch-up
    /// sends the same array.
    ///
    /// The bytes are checked to be UTF-8 once, here (RFC 6455 §5.6: a client fails the connection with 1007 on text
    /// that is not), rather than by every subscriber's client. The presenters encode canonical JSON from Swift
    /// strings, which is always UTF-8, so a failure is a bug in the server.
    public var frame: [UInt8] {
        form(.webSocketFrame) { message in
            var validator = UTF8Validator()
            let bad = validator.validate(message.bytes)
            precondition(
                bad == nil && validator.isAtCharacterBoundary,
                "Invalid state: a message that is not UTF-8 (offset \(bad ?? message.bytes.count))")
            return WebSocketFrameEncoder.frame(opcode: .text, payload: message.bytes)
        }
    }
}
