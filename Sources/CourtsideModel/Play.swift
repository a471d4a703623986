/// One recorded move in the play-by-play, as it stands after corrections.
///
/// Plays are numbered from 1 in the order their moves were recorded; a correction (`editPlay`, `deletePlay`, or an
/// undo, which deletes the latest play) changes a play in place and keeps its number, so a scorer can point at
/// "play 12" whatever happened since.
public struct Play: Sendable, Hashable {
    /// The play's number, from 1.
    public let number: Int
    /// The sequence of the move event that recorded it.
    public let sequence: Int
    /// The command that recorded it.
    public let commandID: CommandID
    /// The period it happened in (1 for untimed games).
    public let period: Int
    /// Game-clock milliseconds run in the period when it happened.
    public let elapsedMs: Int64
    /// When it was recorded, on the caller's clock.
    public let at: Timestamp
    /// Who was on court for each team when it was recorded: whose plus-minus its points count in.
    public let lineup: TeamPair<Set<PlayerID>>
    /// The table-crew member who entered it (nil: the game's scorer token), for the plays report.
    public let enteredBy: CrewMemberID?
    public internal(set) var player: PlayerID
    public internal(set) var team: TeamSide
    public internal(set) var move: PlayerMove
    /// Whether a correction changed its player or move.
    public internal(set) var isEdited = false
    /// Whether it was deleted (or undone): it no longer counts.
    public internal(set) var isDeleted = false
    /// Where it stands when two scorers confirm each other; nil when it needed no confirmation (every play of a
    /// game without dual confirmation, and moves that score nothing and are not fouls).
    public internal(set) var check: PlayCheck?

    /// Whether it counts in the score, the fouls and the counts: not deleted, and confirmed when it had to be.
    public var isCounted: Bool { !isDeleted && (check?.counts ?? true) }

    /// Whether it waits for the other scorer.
    public var isPending: Bool {
        if case .pending = check { return !isDeleted }
        return false
    }

    /// Whether the scorers disagree on it and nobody resolved it yet.
    public var hasConflict: Bool {
        if case .conflict = check { return !isDeleted }
        return false
    }
}
