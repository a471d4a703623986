/// What a player did, as in the tutorial's `PlayerInGameMove`; the raw values are the wire's move names.
public enum PlayerMove: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case onePoint
    case twoPoints
    case assist
    case rebound
    case foul

    /// The points the move adds to its team's score.
    public var points: Int {
        switch self {
        case .onePoint: return 1
        case .twoPoints: return 2
        case .assist, .rebound, .foul: return 0
        }
    }

    public var description: String { rawValue }
}
