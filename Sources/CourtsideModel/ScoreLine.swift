/// Both teams' points at one moment.
public struct ScoreLine: Sendable, Hashable, Codable, CustomStringConvertible {
    public var home: Int
    public var away: Int

    public init(home: Int = 0, away: Int = 0) {
        self.home = home
        self.away = away
    }

    /// The points of `side`.
    public subscript(side: TeamSide) -> Int {
        get { side == .home ? home : away }
        set {
            switch side {
            case .home: home = newValue
            case .away: away = newValue
            }
        }
    }

    /// The side with more points, or nil on a tie.
    public var leader: TeamSide? {
        if home > away { return .home }
        if away > home { return .away }
        return nil
    }

    /// Reads as the tutorial's score label: `"3 - 2"`.
    public var description: String { "\(home) - \(away)" }
}
