/// Everything a peer can do wrong on an open WebSocket connection, with the context needed to explain it.
///
/// The close code each error sends is decided in one place: ``closeCode``.
public enum WebSocketProtocolError: Error, Sendable, Hashable {
    /// A frame used an opcode RFC 6455 §5.2 reserves (3–7, 0xB–0xF).
    case reservedOpcode(UInt8)
    /// A frame set reserved bits no negotiated extension uses (RFC 6455 §5.2).
    case reservedBitsNotNegotiated(WebSocketReservedBits)
    /// A client frame was not masked (RFC 6455 §5.1: the server must close).
    case unmaskedClientFrame
    /// A server frame was masked (RFC 6455 §5.1: the client must close).
    case maskedServerFrame
    /// A control frame announced more than 125 payload bytes (RFC 6455 §5.5).
    case controlFrameTooLong(opcode: WebSocketOpcode, length: Int)
    /// A control frame had FIN clear (RFC 6455 §5.5: control frames must not be fragmented).
    case fragmentedControlFrame(WebSocketOpcode)
    /// A 64-bit payload length had its most significant bit set (RFC 6455 §5.2).
    case payloadLengthTopBitSet
    /// A frame announced more payload than the configured limit.
    case frameTooLarge(length: UInt64, limit: Int)
    /// A message grew past the configured limit.
    case messageTooLarge(size: Int, limit: Int)
    /// A continuation frame arrived with no fragmented message in progress (RFC 6455 §5.4).
    case continuationWithoutStart
    /// A text or binary frame arrived while a fragmented message was in progress (RFC 6455 §5.4).
    case dataFrameDuringFragmentedMessage(WebSocketOpcode)
    /// A text message was not valid UTF-8 (RFC 6455 §8.1); `offset` is the first bad byte within the message.
    case invalidUTF8(offset: Int)
    /// A close frame carried exactly one payload byte (RFC 6455 §5.5.1: a body starts with a 2-byte code).
    case closePayloadTooShort
    /// A close frame carried a code that must not appear on the wire (RFC 6455 §7.4).
    case invalidCloseCode(UInt16)
    /// A close frame's reason was not valid UTF-8 (RFC 6455 §5.5.1).
    case invalidCloseReason
    /// A frame continuing a message set RSV1, which only a message's first frame may carry (RFC 7692 §6.1).
    case reservedBitOnContinuation
    /// The negotiated extension could not decode a message (for example corrupt deflate data).
    case extensionFailed(String)
    /// The negotiated extension failed on our side, not the peer's (zlib could not allocate a stream): the
    /// peer did nothing wrong, so the close code is 1011 rather than a protocol error.
    case extensionResourceFailure(String)

    /// The close code sent for this error: the single mapping from errors to wire codes.
    public var closeCode: WebSocketCloseCode {
        switch self {
        case .reservedOpcode, .reservedBitsNotNegotiated, .unmaskedClientFrame, .maskedServerFrame,
            .controlFrameTooLong, .fragmentedControlFrame, .payloadLengthTopBitSet, .continuationWithoutStart,
            .dataFrameDuringFragmentedMessage, .closePayloadTooShort, .invalidCloseCode, .reservedBitOnContinuation:
            return .protocolError
        case .frameTooLarge, .messageTooLarge:
            return .messageTooBig
        case .invalidUTF8, .invalidCloseReason, .extensionFailed:
            return .invalidFramePayloadData
        case .extensionResourceFailure:
            return .internalError
        }
    }

    /// A short reason for the close frame: constant text, so it never leaks input and always fits in 123 bytes.
    public var closeReason: String {
        switch self {
        case .reservedOpcode: return "reserved opcode"
        case .reservedBitsNotNegotiated: return "reserved bits not negotiated"
        case .unmaskedClientFrame: return "client frames must be masked"
        case .maskedServerFrame: return "server frames must not be masked"
        case .controlFrameTooLong: return "control frame too long"
        case .fragmentedControlFrame: return "fragmented control frame"
        case .payloadLengthTopBitSet: return "invalid payload length"
        case .frameTooLarge: return "frame too large"
        case .messageTooLarge: return "message too large"
        case .continuationWithoutStart: return "continuation without a message"
        case .dataFrameDuringFragmentedMessage: return "new message inside a fragmented message"
        case .invalidUTF8: return "invalid UTF-8 in text message"
        case .closePayloadTooShort: return "close payload of one byte"
        case .invalidCloseCode: return "invalid close code"
        case .invalidCloseReason: return "invalid UTF-8 in close reason"
        case .reservedBitOnContinuation: return "RSV1 on a continuation frame"
        case .extensionFailed: return "extension could not decode the message"
        case .extensionResourceFailure: return "server could not allocate the extension's state"
        }
    }
}
