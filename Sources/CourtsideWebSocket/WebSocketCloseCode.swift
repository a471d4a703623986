/// A close status code (RFC 6455 §7.4): the wire value, separate from ``WebSocketProtocolError``.
///
/// Codes this server never names have ``unknown(_:)``; whether a received code is acceptable is
/// ``isValidOnWire``.
public enum WebSocketCloseCode: Sendable, Hashable, CustomStringConvertible {
    /// 1000: the purpose of the connection has been fulfilled.
    case normalClosure
    /// 1001: the endpoint is going away (server shutdown, page navigation).
    case goingAway
    /// 1002: the peer broke the protocol.
    case protocolError
    /// 1003: a data type the endpoint cannot accept.
    case unsupportedData
    /// 1005: no status code was present (never sent on the wire, RFC 6455 §7.4.1).
    case noStatusReceived
    /// 1006: the connection closed without a close frame (never sent on the wire).
    case abnormalClosure
    /// 1007: a message's data did not match its type (invalid UTF-8 in a text message).
    case invalidFramePayloadData
    /// 1008: a message violated the endpoint's policy.
    case policyViolation
    /// 1009: a message was too big to process.
    case messageTooBig
    /// 1010: the client expected an extension the server did not negotiate.
    case mandatoryExtension
    /// 1011: the server met an unexpected condition.
    case internalError
    /// Any other code, for example an application code in 4000–4999.
    case unknown(UInt16)

    public init(rawValue: UInt16) {
        switch rawValue {
        case 1000: self = .normalClosure
        case 1001: self = .goingAway
        case 1002: self = .protocolError
        case 1003: self = .unsupportedData
        case 1005: self = .noStatusReceived
        case 1006: self = .abnormalClosure
        case 1007: self = .invalidFramePayloadData
        case 1008: self = .policyViolation
        case 1009: self = .messageTooBig
        case 1010: self = .mandatoryExtension
        case 1011: self = .internalError
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt16 {
        switch self {
        case .normalClosure: return 1000
        case .goingAway: return 1001
        case .protocolError: return 1002
        case .unsupportedData: return 1003
        case .noStatusReceived: return 1005
        case .abnormalClosure: return 1006
        case .invalidFramePayloadData: return 1007
        case .policyViolation: return 1008
        case .messageTooBig: return 1009
        case .mandatoryExtension: return 1010
        case .internalError: return 1011
        case .unknown(let code): return code
        }
    }

    /// Whether a peer may send this code in a close frame.
    ///
    /// RFC 6455 §7.4.1–7.4.2: 1000–1003 and 1007–1011 are defined for the wire; 3000–3999 are registered by
    /// libraries and 4000–4999 private, both accepted. Below 1000 is unused; 1004 is reserved; 1005, 1006 and
    /// 1015 must never appear in a close frame; 1012–2999 are reserved for future RFCs (the Autobahn testsuite
    /// treats 1012–1014 as invalid too, and so do we, since this server never negotiates their meaning);
    /// 5000 and above are undefined. Receiving any of those fails the connection with 1002.
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1011, 3000...4999: return true
        default: return false
        }
    }

    public var description: String { "\(rawValue)" }
}
