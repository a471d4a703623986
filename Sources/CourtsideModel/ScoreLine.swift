/// Both teams' points at one moment.
public typealias ScoreLine = TeamPair<Int>

extension TeamPair where Value == Int {
    public init(home: Int = 0, away: Int = 0) {
        self.home = home
        self.away = away
    }

    /// The side with more points, or nil on a tie.
    public var leader: TeamSide? {
        if home > away { return .home }
        if away > home { return .away }
        return nil
    }
}

extension TeamPair: CustomStringConvertible where Value == Int {
    /// Reads as the tutorial's score label: `"3 - 2"`.
    public var description: String { "\(home) - \(away)" }
}
