import CourtsideModel

/// The statistics a game's document shows, read from the model in one value: each player's line and game-clock
/// milliseconds played as of the clock's latest reading, each team's totals, and the points of each period.
///
/// Minutes are read at the clock's latest reading (the elapsed time when it last started, stopped or was set), not
/// at the batch's instant, so the value changes only with commands and the time limit, never as time passes: a
/// page adds the running clock's time for the players on court (docs/protocol.md, "Statistics").
public struct StatsData: Equatable, Sendable {
    public var players: [PlayerID: PlayerStats]
    public var teams: TeamPair<TeamStats>
    public var periodScores: [ScoreLine]

    public init(game: Game) {
        var players: [PlayerID: PlayerStats] = [:]
        for side in TeamSide.allCases {
            for player in game.team(side).players {
                players[player.id] = game.statsAtClockReading(for: player.id)
            }
        }
        self.players = players
        self.teams = TeamPair(home: game.teamStatsAtClockReading(.home), away: game.teamStatsAtClockReading(.away))
        self.periodScores = game.periodScores
    }
}
