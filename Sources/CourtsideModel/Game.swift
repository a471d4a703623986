/// A basketball game between two teams: its setup, its event log and everything derived from the log.
///
/// A pure value. It changes only through `apply(_:at:)` (a scorer's command), `advance(to:)` (time passing, for
/// the end of a period), `reopen(at:)` (an administrator) and `replay(_:)` (rebuilding from a journal); each takes
/// the instant from the caller, so the same setup and events always give an equal game (`Game(setup:replaying:)`).
///
/// Decisions the model makes:
/// - Undo reverts the most recent *move* (a player's or a team's) not yet undone or deleted, with everything derived
///   from it (score, count, team fouls, winner, the scores at the ends of deciding periods). Clock, shot clock, timeout, possession and
///   correction commands are not undoable: a scorer fixes them with their own commands (`setClock`, `editPlay`).
/// - `editPlay` and `deletePlay` correct any play, not only the last: everything derived from the play changes with
///   it in the same event. The possession a 10th team foul gave in 3x3 is not taken back by a correction.
/// - Finishing stops the clocks. A correction that takes the winning lead away reopens the game with the clock
///   stopped where the game ended (or, when the lead was decided at the end of a period, in the next period).
/// - Moves are accepted whether or not the clock runs (free throws happen on a stopped clock), and from any player
///   of the roster, on court or not (a technical foul can be charged to a player on the bench), unless the player
///   fouled out or was disqualified (`PlayerFoulRules`): they get no more moves and cannot come back on court.
///   Such a player may stay on court until substituted (the scorer's next command), and counts there for minutes
///   and plus-minus meanwhile.
/// - Minutes are game-clock time: a player on court gains the clock's elapsed time from entering (the start of the
///   period, or the substitution) to leaving (a substitution, the end of the period). A correction of the clock
///   (`setClock`) moves it for those on court. Rules without substitutions have every player on court.
/// - Plus-minus is the points scored for minus the points scored against while the player was on court: each play
///   keeps who was on court when it was recorded, so a correction of an earlier play corrects it too.
/// - `endPeriod` ends the period at once, exactly as the clock reaching the period's length would (the clock is
///   set to the length first).
/// - A period ends when the game clock reaches its length: `timeLimitReached` stops the clocks, and the next
///   period (with a fresh clock when it is timed) begins at once unless the game is decided.
/// - The game clock starts the shot clock with it and stops it with it; the shot clock can also run on its own.
/// - The record of accepted command ids is part of the game, rebuilt from the events (each event carries its
///   command id). Rejected commands leave no trace, so retrying one is evaluated again.
/// - With two scorers who confirm each other (`Rules.dualConfirmation`), a scorer's points and fouls wait for the
///   other scorer's same entry before they count; the rules of that are in `Game+Confirmation.swift`.
/// - Time never runs backwards for a game: a command dated before the game's latest event is recorded at that
///   latest instant, which keeps the log ordered whatever the caller's clock does.
public struct Game: Sendable, Hashable {
    /// The score at the end of a period that could decide the game, with the sequence of its event.
    struct DecidingEnd: Sendable, Hashable {
        let sequence: Int
        var score: ScoreLine
    }

    public let setup: GameSetup
    /// Every accepted change, oldest first; `events[i].sequence == i + 1`.
    public internal(set) var events: [GameEvent] = []
    /// The current score (moves undone or deleted are not counted).
    public internal(set) var score = ScoreLine()
    /// The game clock of the current period (of the whole game for untimed rules).
    public internal(set) var clock = GameClock()
    /// The winning side once the game is finished.
    public internal(set) var winner: TeamSide?
    /// The current period, from 1; an untimed game stays in period 1.
    public internal(set) var period = 1
    /// The latest period whose end was recorded (0 before any).
    public internal(set) var lastEndedPeriod = 0
    /// The shot clock, or nil when the rules have none.
    public internal(set) var shotClock: ShotClock?
    /// Team fouls in the current foul window (see `TeamFoulRules`); zero when the rules do not count them.
    public internal(set) var teamFouls = TeamPair(both: 0)
    /// Timeouts each team has left; zero when the rules have none.
    public internal(set) var timeoutsLeft: TeamPair<Int>
    /// The team with the ball, once a scorer said (nil when the rules do not track it, or before).
    public internal(set) var possession: TeamSide?
    /// Whether a scorer confirmed the game final: it takes no command until an administrator reopens it.
    public internal(set) var isLocked = false
    /// Every move recorded, numbered from 1, as corrected since.
    public internal(set) var plays: [Play] = []
    /// The players on court, when the rules have substitutions (empty otherwise).
    public internal(set) var onCourt = TeamPair<Set<PlayerID>>(both: [])
    /// Every team move recorded, oldest first (an undo marks one deleted).
    public internal(set) var teamActions: [TeamAction] = []
    /// Points scored in each period so far, from period 1 (the current period last).
    public internal(set) var periodScores: [ScoreLine] = [ScoreLine()]
    /// The table crew, in the order added, revoked members included (their ids are never reused).
    public internal(set) var crew: [CrewMember] = []
    /// When each member's latest command was applied.
    public internal(set) var lastCommandAt: [CrewMemberID: Timestamp] = [:]
    /// Whether a review runs: the game clock cannot start until it ends.
    public internal(set) var isUnderReview = false
    /// The member whose command is being performed (nil for the scorer token): set only inside `perform`, so the
    /// events it appends carry it.
    var issuer: CrewMemberID?

    /// Scores at the ends of the periods that could decide the game, oldest first.
    var decidingEnds: [DecidingEnd] = []
    /// Each player's move counts; every player has an entry from the start.
    var moveCounts: [PlayerID: MoveCounts]
    /// The moves (plays and team moves) neither undone nor deleted, oldest first: undo takes the last.
    var undoable: [Undoable] = []
    /// Each team's move counts.
    var teamMoveCounts = TeamPair(both: TeamMoveCounts())
    /// Game-clock milliseconds each player played before entering the court the last time (or before the current
    /// period began).
    var bankedPlayedMs: [PlayerID: Int64] = [:]
    /// For each player on court (every player when the rules have no substitutions): the elapsed game time of the
    /// current period when they came on (0 for those on court when it began).
    var enteredAtMs: [PlayerID: Int64] = [:]
    /// Each player's plus-minus.
    var plusMinus: [PlayerID: Int] = [:]
    /// The sequence of the event recording each accepted command id: the idempotency record.
    var acceptedCommands: [CommandID: Int] = [:]
    /// The numbers of the plays waiting for the other scorer, ascending (so their windows end in this order too).
    var awaiting: [Int] = []

    /// A new game: 0 - 0, clock stopped at 0, no events.
    public init(setup: GameSetup) {
        self.setup = setup
        var counts: [PlayerID: MoveCounts] = [:]
        for player in setup.homeTeam.players + setup.awayTeam.players {
            counts[player.id] = MoveCounts()
        }
        self.moveCounts = counts
        let rules = setup.rules
        self.timeoutsLeft = TeamPair(both: rules.timeouts?.atStart ?? 0)
        self.shotClock = rules.shotClock.map { ShotClock(fullMs: $0.lengthMs) }
        if let onCourtCount = rules.roster.onCourt {
            // The starters given, or the first players listed (a roster is given in that order).
            onCourt = TeamPair(
                home: Set(setup.homeTeam.starterIDs(onCourt: onCourtCount)),
                away: Set(setup.awayTeam.starterIDs(onCourt: onCourtCount)))
        }
        for side in TeamSide.allCases {
            for player in lineup(side) { enteredAtMs[player] = 0 }
        }
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
    /// Whether the current period is an overtime (it stays so when the game is won in it).
    public var isOvertimePeriod: Bool { rules.isTimed && period > rules.periodCount }
    /// Whether overtime is being played: an overtime period of a game not yet won.
    public var isOvertime: Bool { isOvertimePeriod && winner == nil }
    /// The score when regulation ended (adjusted when a move from before it is corrected), or nil before.
    public var scoreAtTimeLimit: ScoreLine? { decidingEnds.first?.score }
    /// Whether there is a move that `undo` would revert (for the game's scorer token, with dual confirmation).
    public var canUndo: Bool { undoTarget(by: nil) != nil }
    /// When the latest event happened, or nil before the first.
    public var lastEventTime: Timestamp? { events.last?.at }
    /// The game-clock length of the current period, or nil when it is untimed.
    public var periodLengthMs: Int64? { rules.periodLengthMs(period) }

    /// Elapsed game time in the current period at `now`, in milliseconds. Until the end of a timed period is
    /// recorded it reads at most the period's length, so a display never shows time the game cannot have had.
    public func elapsedMs(at now: Timestamp) -> Int64 {
        let elapsed = clock.elapsedMs(at: now)
        guard period > lastEndedPeriod, let limit = periodLengthMs else { return elapsed }
        return min(elapsed, limit)
    }

    /// The instant the running clock reaches the end of the period, or nil (untimed period, end already recorded,
    /// clock stopped). The owner schedules `advance(to:)` for it instead of polling.
    public var timeLimitDeadline: Timestamp? {
        guard period > lastEndedPeriod, let limit = periodLengthMs else { return nil }
        return clock.instant(whenElapsedIs: limit)
    }

    /// Whether `side` is in the penalty (nil when the rules count no team fouls).
    public func isInPenalty(_ side: TeamSide) -> Bool? {
        rules.teamFouls.map { $0.isInPenalty(fouls: teamFouls[side]) }
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
