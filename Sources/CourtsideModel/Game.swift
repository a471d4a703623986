/// A basketball game between two teams of three: its setup, its event log and everything derived from the log.
///
/// A pure value. It changes only through `apply(_:at:)` (a scorer's command), `advance(to:)` (time passing, for
/// the time limit) and `replay(_:)` (rebuilding from a journal); each takes the instant from the caller, so the
/// same setup and events always give an equal game (`Game(setup:replaying:)`).
///
/// Decisions the model makes:
/// - Undo reverts the most recent *move* not yet undone, with everything derived from it (score, count, winner, the
///   score at the time limit). Clock starts and pauses are not undoable: a scorer fixes them with the clock button.
/// - Finishing stops the clock. Undoing the winning basket reopens the game with the clock still stopped where
///   the game ended, so no game time runs until a scorer starts it again.
/// - Moves are accepted whether or not the clock runs (free throws happen on a stopped clock).
/// - The record of accepted command ids is part of the game, rebuilt from the events (each event carries its
///   command id). Rejected commands leave no trace, so retrying one is evaluated again.
/// - Time never runs backwards for a game: a command dated before the game's latest event is recorded at that
///   latest instant, which keeps the log ordered whatever the caller's clock does.
public struct Game: Sendable, Hashable {
    public let setup: GameSetup
    /// Every accepted change, oldest first; `events[i].sequence == i + 1`.
    public internal(set) var events: [GameEvent] = []
    /// The current score (moves undone are not counted).
    public internal(set) var score = ScoreLine()
    public internal(set) var clock = GameClock()
    /// The winning side once the game is finished.
    public internal(set) var winner: TeamSide?
    /// The score when the clock reached the time limit (adjusted when a move from before it is undone), or nil
    /// while the limit has not been reached.
    public internal(set) var scoreAtTimeLimit: ScoreLine?

    /// The sequence of the `timeLimitReached` event, to know which undone moves came before it.
    var timeLimitSequence: Int?
    /// Each player's move counts; every player has an entry from the start.
    var moveCounts: [PlayerID: MoveCounts]
    /// Sequences of the move events not undone, oldest first: undo takes the last.
    var undoableMoves: [Int] = []
    /// The sequence of the event recording each accepted command id: the idempotency record.
    var acceptedCommands: [CommandID: Int] = [:]

    /// A new game: 0 - 0, clock stopped at 0, no events.
    public init(setup: GameSetup) {
        self.setup = setup
        var counts: [PlayerID: MoveCounts] = [:]
        for player in setup.homeTeam.players + setup.awayTeam.players {
            counts[player.id] = MoveCounts()
        }
        self.moveCounts = counts
    }

    public var id: GameID { setup.id }
    public var homeTeam: Team { setup.homeTeam }
    public var awayTeam: Team { setup.awayTeam }
    public var rules: Rules { setup.rules }
    public var homeScore: Int { score.home }
    public var awayScore: Int { score.away }

    public var isFinished: Bool { winner != nil }
    /// Whether the game clock is stopped (the tutorial's `isPaused`; a new game starts paused).
    public var isPaused: Bool { !clock.isRunning }
    public var isClockRunning: Bool { clock.isRunning }
    /// Whether the time limit was reached on a tie and overtime is being played.
    public var isOvertime: Bool { scoreAtTimeLimit != nil && winner == nil }
    /// Whether there is a move that `undo` would revert.
    public var canUndo: Bool { !undoableMoves.isEmpty }
    /// When the latest event happened, or nil before the first.
    public var lastEventTime: Timestamp? { events.last?.at }

    /// Elapsed game time at `now`, in milliseconds. Until the time limit is recorded it reads at most the limit, so
    /// a display never shows time the game cannot have had.
    public func elapsedMs(at now: Timestamp) -> Int64 {
        let elapsed = clock.elapsedMs(at: now)
        guard let limit = rules.timeLimitMs, scoreAtTimeLimit == nil else { return elapsed }
        return min(elapsed, limit)
    }

    /// The instant the running clock reaches the time limit, or nil (untimed rules, limit already reached, clock
    /// stopped). The owner schedules `advance(to:)` for it instead of polling.
    public var timeLimitDeadline: Timestamp? {
        guard let limit = rules.timeLimitMs, scoreAtTimeLimit == nil else { return nil }
        return clock.instant(whenElapsedIs: limit)
    }

    /// The points of `side`.
    public func score(for side: TeamSide) -> Int {
        score[side]
    }

    /// The team on `side`.
    public func team(_ side: TeamSide) -> Team {
        setup.team(side)
    }

    /// The player with `id`, or nil.
    public func player(_ id: PlayerID) -> Player? {
        setup.player(id)
    }

    /// How many times `player` made `move` (the tutorial's `playerMoveCount(for:move:)`); 0 for an unknown player.
    public func moveCount(for player: PlayerID, move: PlayerMove) -> Int {
        moveCounts[player]?[move] ?? 0
    }

    /// All of `player`'s counts, or nil for an unknown player.
    public func moveCounts(for player: PlayerID) -> MoveCounts? {
        moveCounts[player]
    }

    /// The event that recorded the command with `id`, or nil when no such command was accepted.
    public func event(forCommand id: CommandID) -> GameEvent? {
        acceptedCommands[id].map { events[$0 - 1] }
    }
}
