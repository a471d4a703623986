import COpenSSL

/// A TLS protocol version, with OpenSSL's wire numbers. Servers accept TLS 1.2 and 1.3 only; the older versions
/// exist so a test or a load generator can make a client that must be refused.
public enum TLSProtocolVersion: Int32, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case tls1_0 = 0x0301
    case tls1_1 = 0x0302
    case tls1_2 = 0x0303
    case tls1_3 = 0x0304

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .tls1_0: return "TLSv1"
        case .tls1_1: return "TLSv1.1"
        case .tls1_2: return "TLSv1.2"
        case .tls1_3: return "TLSv1.3"
        }
    }
}
