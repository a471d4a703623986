/// The hook for a negotiated extension that transforms whole messages, such as permessage-deflate (RFC 7692).
///
/// A received message whose first frame carries RSV1 is reassembled, then handed to
/// ``decodeMessage(_:opcode:maxBytes:)`` before UTF-8 validation and delivery (RFC 7692 §6.2). Continuation and
/// control frames never carry RSV1 (RFC 7692 §6.1), which the connection enforces.
///
/// Not `Sendable`: an implementation typically owns a zlib stream and lives on its connection's event loop.
public protocol WebSocketMessageExtension {
    /// The reserved bits this extension gives meaning to; the decoder accepts these and no others.
    var reservedBits: WebSocketReservedBits { get }

    /// Decodes the payload of a received message whose first frame had RSV1 set.
    ///
    /// - Parameter maxBytes: the connection's message limit; an implementation stops as soon as its output
    ///   would pass it and throws ``WebSocketProtocolError/messageTooLarge(size:limit:)``, so a small compressed
    ///   message cannot expand without bound.
    mutating func decodeMessage(_ payload: [UInt8], opcode: WebSocketOpcode, maxBytes: Int)
        throws(WebSocketProtocolError) -> [UInt8]

    /// The frame that carries one of the connection's own messages: transformed (RSV1, RFC 7692 §6.1) when
    /// the extension chooses to, else plain. ``WebSocketConnectionStateMachine/send(_:)`` calls it for every
    /// message it sends, so an extension with send-side state (a deflater's window) sees them all, in order.
    /// The default returns the plain frame.
    mutating func encodeFrame(for message: WebSocketMessage) -> [UInt8]
}

extension WebSocketMessageExtension {
    public mutating func encodeFrame(for message: WebSocketMessage) -> [UInt8] {
        WebSocketFrameEncoder.message(message)
    }
}
