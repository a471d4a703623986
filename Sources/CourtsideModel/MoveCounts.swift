/// How many times one player made each move (moves undone are not counted).
public struct MoveCounts: Sendable, Hashable, Codable {
    public private(set) var onePoint = 0
    public private(set) var twoPoints = 0
    public private(set) var assist = 0
    public private(set) var rebound = 0
    public private(set) var foul = 0

    public init() {}

    /// The count for `move`.
    public subscript(move: PlayerMove) -> Int {
        get {
            switch move {
            case .onePoint: return onePoint
            case .twoPoints: return twoPoints
            case .assist: return assist
            case .rebound: return rebound
            case .foul: return foul
            }
        }
        set {
            switch move {
            case .onePoint: onePoint = newValue
            case .twoPoints: twoPoints = newValue
            case .assist: assist = newValue
            case .rebound: rebound = newValue
            case .foul: foul = newValue
            }
        }
    }

    /// The points these moves scored.
    public var points: Int {
        PlayerMove.allCases.reduce(0) { $0 + self[$1] * $1.points }
    }
}
