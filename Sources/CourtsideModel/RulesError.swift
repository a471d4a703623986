/// Why custom rules were refused, with the value given; `field` names the input at fault.
public enum RulesError: Error, Sendable, Hashable {
    case targetScoreOutOfRange(Int)
    case winByOutOfRange(Int)
    case timeLimitOutOfRange(Int64)
    /// `confirmation` is not a known value (`"dual"`, or `"single"`, the default).
    case unknownConfirmation(String)
    /// `confirmWindowMs` outside `DualConfirmation.windowRange`.
    case confirmWindowOutOfRange(Int64)
    /// `confirmWindowMs` given without `"confirmation":"dual"`: it would be silently ignored.
    case confirmWindowWithoutDual

    /// The rules field at fault, spelled as in the rules JSON.
    public enum Field: String, Sendable, Hashable, Codable {
        case targetScore
        case winBy
        case timeLimitMs
        case confirmation
        case confirmWindowMs
    }

    public var field: Field {
        switch self {
        case .targetScoreOutOfRange: return .targetScore
        case .winByOutOfRange: return .winBy
        case .timeLimitOutOfRange: return .timeLimitMs
        case .unknownConfirmation: return .confirmation
        case .confirmWindowOutOfRange, .confirmWindowWithoutDual: return .confirmWindowMs
        }
    }
}
