import CourtsideModel

/// Everything a game's views show after one batch, as a value: what the view model's `Dynamic`s hold, in one place,
/// so the presenter can compute the next document from the previous one without observing them (the next document
/// is a function of the previous document and this frame).
public struct GameFrame: Equatable, Sendable {
    public let time: String
    public let score: String
    public let homeScore: Int
    public let awayScore: Int
    public let isFinished: Bool
    public let isPaused: Bool
    public let winner: TeamSide?
    public let clock: ClockData
    public let status: GameStatus
    public let stats: StatsData
    /// Each player's counts, the home roster then the away roster, in roster order.
    public let moveCounts: [MoveCounts]
    /// The plays two scorers disagree on, not yet resolved; nil when the game has no dual confirmation (its document
    /// then has no `conflicts` member at all).
    public let conflicts: [Play]?

    /// The frame of `game` shown as of `now`; `previousClock` keeps a stopped clock's reading (see
    /// `GameScoreboardEditorViewModel.clockData(of:now:previous:)`).
    init(game: Game, now: Timestamp, previousClock: ClockData?) {
        time = GameScoreboardEditorViewModel.timeLabel(of: game, now: now)
        score = game.score.description
        homeScore = game.homeScore
        awayScore = game.awayScore
        isFinished = game.isFinished
        isPaused = game.isPaused
        winner = game.winner
        clock = GameScoreboardEditorViewModel.clockData(of: game, now: now, previous: previousClock)
        status = GameStatus(game: game)
        stats = StatsData(game: game)
        moveCounts = (game.homeTeam.players + game.awayTeam.players).map { game.moveCounts(for: $0.id) ?? MoveCounts() }
        conflicts = game.rules.dualConfirmation == nil ? nil : game.conflicts
    }
}
