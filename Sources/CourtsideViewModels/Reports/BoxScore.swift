import CourtsideModel

/// The box score of a game, as FIBA's lays it out: per player MIN, PTS, FGM-A, FG%, 2PM-A, 3PM-A, FTM-A, OREB, DREB,
/// REB, AST, TOV, STL, BLK, PF, +/- and EFF; each team's totals with its team rebounds and turnovers; the points of
/// each period. JSON (`GET /api/games/{id}/boxscore`) and CSV (`/boxscore.csv`). Read from the model's statistics,
/// so the teams' points are the score. Minutes are read at `now` (a running clock counts).
public struct BoxScore: Sendable, Equatable {
    public let game: Game
    public let now: Timestamp

    public init(game: Game, at now: Timestamp) {
        self.game = game
        self.now = now
    }

    /// `mm:ss` of game time played.
    static func minutes(_ stats: PlayerStats) -> String {
        let seconds = stats.secondsPlayed
        let minutes = seconds / 60
        return (minutes < 10 ? "0" : "") + "\(minutes):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }

    /// `made-attempted`.
    static func madeAttempted(_ made: Int, _ attempted: Int) -> String { "\(made)-\(attempted)" }

    /// The field goal percentage to one decimal ("45.5"), empty with no attempt.
    static func percentage(_ made: Int, _ attempted: Int) -> String {
        guard attempted > 0 else { return "" }
        let tenths = (made * 1000 + attempted / 2) / attempted
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `{"game","score","periodScores":[[home,away]…],"homeTeam":TEAM,"awayTeam":TEAM}`, TEAM being
    /// `{"name","short","players":[PLAYER…],"totals":TEAMSTATS,"teamFouls"}` and PLAYER
    /// `{"id","name","number","onCourt","minutes":"mm:ss",STATS members…}` (STATS and TEAMSTATS as in the document,
    /// minutes as of the request).
    public var json: JSONValue {
        func team(_ side: TeamSide) -> JSONValue {
            let team = game.team(side)
            let players: [JSONValue] = team.players.map { player in
                let stats = game.stats(for: player.id, at: now) ?? PlayerStats()
                var members = GameDocument.statsJSON(stats).objectValue ?? [:]
                members["id"] = .string(player.id.rawValue)
                members["name"] = .string(player.name)
                members["number"] = player.number.map { .string($0) } ?? .null
                members["onCourt"] = .bool(game.isOnCourt(player.id))
                members["minutes"] = .string(Self.minutes(stats))
                return .object(members)
            }
            return [
                "name": .string(team.name), "short": .string(team.shortName), "players": .array(players),
                "totals": GameDocument.teamStatsJSON(game.teamStats(side, at: now)),
                "teamFouls": game.rules.teamFouls == nil ? .null : .int(game.teamFouls[side]),
            ]
        }
        return [
            "game": .string(game.id.rawValue), "score": .string(game.score.description),
            "periodScores": GameDocument.periodScoresJSON(game.periodScores), "homeTeam": team(.home),
            "awayTeam": team(.away),
        ]
    }

    static let header = [
        "Team", "Number", "Player", "MIN", "PTS", "FGM-A", "FG%", "2PM-A", "3PM-A", "FTM-A", "OREB", "DREB", "REB",
        "AST", "TOV", "STL", "BLK", "PF", "+/-", "EFF",
    ]

    /// The statistics cells of a line, from MIN to EFF.
    static func cells(_ stats: PlayerStats, minutes: String) -> [CSVTable.Cell] {
        [
            .text(minutes), .number(stats.points),
            .text(madeAttempted(stats.fieldGoalsMade, stats.fieldGoalsAttempted)),
            .text(percentage(stats.fieldGoalsMade, stats.fieldGoalsAttempted)),
            .text(madeAttempted(stats.twoPointersMade, stats.twoPointersAttempted)),
            .text(madeAttempted(stats.threePointersMade, stats.threePointersAttempted)),
            .text(madeAttempted(stats.freeThrowsMade, stats.freeThrowsAttempted)), .number(stats.offensiveRebounds),
            .number(stats.defensiveRebounds), .number(stats.rebounds), .number(stats.assists),
            .number(stats.turnovers), .number(stats.steals), .number(stats.blocks), .number(stats.fouls),
            .number(stats.plusMinus), .number(stats.efficiency),
        ]
    }

    /// One row per player, then per team a `TEAM` row (team rebounds in REB, turnovers in TOV, coach and bench
    /// technicals in PF) and a `TOTAL` row (players and team together, as FIBA's totals), then one `PERIOD n` row
    /// per period with each team's points in PTS.
    public var csv: CSVTable {
        var table = CSVTable(header: Self.header)
        for side in TeamSide.allCases {
            let team = game.team(side)
            for player in team.players {
                let stats = game.stats(for: player.id, at: now) ?? PlayerStats()
                table.rows.append(
                    [.text(team.name), player.number.map { .text($0) } ?? .empty, .text(player.name)]
                        + Self.cells(stats, minutes: Self.minutes(stats)))
            }
            let totals = game.teamStats(side, at: now)
            var teamRow = [CSVTable.Cell](repeating: .empty, count: Self.header.count)
            teamRow[0] = .text(team.name)
            teamRow[2] = "TEAM"
            teamRow[Self.header.firstIndex(of: "REB")!] = .number(totals.teamRebounds)
            teamRow[Self.header.firstIndex(of: "TOV")!] = .number(totals.teamTurnovers)
            teamRow[Self.header.firstIndex(of: "PF")!] = .number(totals.coachTechnicals + totals.benchTechnicals)
            table.rows.append(teamRow)
            var sums = totals.players
            sums.rebounds += totals.teamRebounds
            sums.turnovers += totals.teamTurnovers
            table.rows.append([.text(team.name), .empty, "TOTAL"] + Self.cells(sums, minutes: Self.minutes(sums)))
        }
        for (index, score) in game.periodScores.enumerated() {
            for side in TeamSide.allCases {
                var row = [CSVTable.Cell](repeating: .empty, count: Self.header.count)
                row[0] = .text(game.team(side).name)
                row[2] = .text("PERIOD \(index + 1)")
                row[Self.header.firstIndex(of: "PTS")!] = .number(score[side])
                table.rows.append(row)
            }
        }
        return table
    }
}
