/// Where a play stands when two scorers confirm each other (`Rules.dualConfirmation`); a play that needed no
/// confirmation has none.
///
/// The play itself is always the first scorer's entry (as corrected since); the second scorer's entry, when it
/// differed, is kept beside it so that a scorer can choose between them.
public enum PlayCheck: Sendable, Hashable {
    /// Waiting for the other scorer until `confirmBy` (server time): it counts nothing yet.
    case pending(confirmBy: Timestamp)
    /// The other scorer (`by`, nil for the game's scorer token) entered the same move: it counts.
    case confirmed(by: CrewMemberID?)
    /// The scorers disagree: `second` is the other scorer's different entry, nil when none came within the window.
    /// It counts nothing until a scorer resolves it.
    case conflict(second: PlayEntry?)
    /// A scorer (`by`) resolved the conflict keeping `keep`; `second` is the other entry the conflict had.
    case resolved(keep: ConflictResolution, by: CrewMemberID?, second: PlayEntry?)

    /// Whether the play counts in the score, the fouls and the counts (unless deleted).
    public var counts: Bool {
        switch self {
        case .pending, .conflict: false
        case .confirmed, .resolved: true
        }
    }
}

/// One scorer's entry of a move, as the other scorer's version of a play in a conflict.
public struct PlayEntry: Sendable, Hashable {
    public let team: TeamSide
    public let player: PlayerID
    public let move: PlayerMove
    /// Who entered it (nil: the game's scorer token).
    public let by: CrewMemberID?
    /// The sequence of the move event that recorded it.
    public let sequence: Int

    public init(team: TeamSide, player: PlayerID, move: PlayerMove, by: CrewMemberID?, sequence: Int) {
        self.team = team
        self.player = player
        self.move = move
        self.by = by
        self.sequence = sequence
    }
}
