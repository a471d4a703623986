/// Which of the two teams: the wire spells them `"home"` and `"away"`.
public enum TeamSide: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case home
    case away

    /// The other team.
    public var opponent: TeamSide {
        switch self {
        case .home: return .away
        case .away: return .home
        }
    }

    public var description: String { rawValue }
}
