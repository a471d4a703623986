/// The frame opcodes of RFC 6455 §5.2 (§11.8 registry).
///
/// Reserved opcodes (3–7 and 0xB–0xF) have no case: the decoder refuses them with
/// ``WebSocketProtocolError/reservedOpcode(_:)`` before a frame value exists.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CustomStringConvertible {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Control frames (close, ping, pong) have the high bit of the opcode set (RFC 6455 §5.5).
    public var isControl: Bool { rawValue & 0x8 != 0 }

    public var description: String {
        switch self {
        case .continuation: return "continuation"
        case .text: return "text"
        case .binary: return "binary"
        case .close: return "close"
        case .ping: return "ping"
        case .pong: return "pong"
        }
    }
}
