/// Why custom rules were refused, with the value given; `field` names the input at fault.
public enum RulesError: Error, Sendable, Hashable {
    case targetScoreOutOfRange(Int)
    case winByOutOfRange(Int)
    case timeLimitOutOfRange(Int64)

    /// The rules field at fault, spelled as in the rules JSON.
    public enum Field: String, Sendable, Hashable, Codable {
        case targetScore
        case winBy
        case timeLimitMs
    }

    public var field: Field {
        switch self {
        case .targetScoreOutOfRange: return .targetScore
        case .winByOutOfRange: return .winBy
        case .timeLimitOutOfRange: return .timeLimitMs
        }
    }
}
