/// What a table-crew member may do; the raw values are the wire's role names (docs/protocol.md, "The table crew").
///
/// A table crew splits the jobs a paper score sheet splits between officials (FIBA Official Basketball Rules
/// art. 48-50: the scorer, the timer, the shot clock operator; a statistician keeps the box score): each device
/// holds one role, so a timer's laptop cannot change the score by a slip of the finger. The game's own scorer token
/// is the role `scorer`.
public enum CrewRole: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Everything, as the game's scorer token.
    case scorer
    /// The game clock and what stops or corrects it: clock, setClock, endPeriod, shotClock, timeout, possession.
    case clock
    /// The shot clock only.
    case shotClock
    /// Moves that score no points and are not fouls: misses, rebounds, assists, steals, blocks, turnovers, and
    /// team rebounds and turnovers.
    case stats
    /// Nothing but `review`.
    case judge

    /// Whether the role may send `action`.
    public func allows(_ action: GameCommand.Action) -> Bool {
        switch (self, action) {
        case (.scorer, _):
            return true
        case (.clock, .clock), (.clock, .setClock), (.clock, .endPeriod), (.clock, .shotClock), (.clock, .timeout),
            (.clock, .possession):
            return true
        case (.shotClock, .shotClock):
            return true
        case (.stats, .move(_, let move)):
            return move.points == 0 && !move.isPlayerFoul
        case (.stats, .teamMove(_, let move)):
            return move.isRebound || move == .turnover
        case (.judge, .review):
            return true
        default:
            return false
        }
    }

    public var description: String { rawValue }
}
