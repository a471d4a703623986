import CourtsideModel

/// Everything about a game beyond the tutorial's score and clock, read from the model in one value: the period, the
/// shot clock, team fouls and the penalty, timeouts, possession, the lock and who is on court. Each member is nil
/// where the game's rules do not use it (a pickup game has no period, shot clock, fouls or timeouts).
public struct GameStatus: Equatable, Sendable {
    public var period: Int?
    public var isOvertime: Bool?
    /// The game-clock length of the current period, for "time remaining" (nil when untimed).
    public var periodLengthMs: Int64?
    public var shotClock: ShotClockData?
    public var teamFouls: TeamPair<Int>?
    public var inPenalty: TeamPair<Bool>?
    public var timeoutsLeft: TeamPair<Int>?
    public var possession: TeamSide?
    public var isLocked: Bool
    /// Whether a review runs (the document's `underReview`, present only while true).
    public var isUnderReview: Bool
    /// Whether each player is on court, for rules with substitutions.
    public var onCourt: [PlayerID: Bool]?

    public init(game: Game) {
        let rules = game.rules
        period = rules.isTimed ? game.period : nil
        isOvertime = rules.isTimed ? game.isOvertimePeriod : nil
        periodLengthMs = game.periodLengthMs
        shotClock = game.shotClock.map(ShotClockData.init)
        teamFouls = rules.teamFouls == nil ? nil : game.teamFouls
        inPenalty = rules.teamFouls.map { foulRules in
            TeamPair(
                home: foulRules.isInPenalty(fouls: game.teamFouls.home),
                away: foulRules.isInPenalty(fouls: game.teamFouls.away))
        }
        timeoutsLeft = rules.timeouts == nil ? nil : game.timeoutsLeft
        possession = game.possession
        isLocked = game.isLocked
        isUnderReview = game.isUnderReview
        if rules.roster.onCourt != nil {
            var onCourt: [PlayerID: Bool] = [:]
            for side in TeamSide.allCases {
                for player in game.team(side).players {
                    onCourt[player.id] = game.onCourt[side].contains(player.id)
                }
            }
            self.onCourt = onCourt
        }
    }
}
