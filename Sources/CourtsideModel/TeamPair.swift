/// One value per team.
public struct TeamPair<Value: Sendable & Hashable>: Sendable, Hashable {
    public var home: Value
    public var away: Value

    public init(home: Value, away: Value) {
        self.home = home
        self.away = away
    }

    /// The same value for both teams.
    public init(both value: Value) {
        self.init(home: value, away: value)
    }

    public subscript(side: TeamSide) -> Value {
        get { side == .home ? home : away }
        set {
            switch side {
            case .home: home = newValue
            case .away: away = newValue
            }
        }
    }
}

extension TeamPair: Codable where Value: Codable {}
