/// A complete data message, reassembled from its frames and, for text, validated as UTF-8.
public enum WebSocketMessage: Sendable, Hashable {
    case text(String)
    case binary([UInt8])

    /// The opcode of the (first) frame carrying this message.
    public var opcode: WebSocketOpcode {
        switch self {
        case .text: return .text
        case .binary: return .binary
        }
    }

    /// The payload bytes: UTF-8 for text.
    public var payload: [UInt8] {
        switch self {
        case .text(let string): return Array(string.utf8)
        case .binary(let bytes): return bytes
        }
    }
}
