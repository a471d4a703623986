import CourtsideModel

extension GameDocument {
    static let homeStats = JSONPointer(tokens: ["homeStats"])
    static let awayStats = JSONPointer(tokens: ["awayStats"])
    static let periodScores = JSONPointer(tokens: ["periodScores"])

    /// The members of a player's `stats` (docs/protocol.md, "Statistics"), in the protocol's order, each with its
    /// value in `stats`.
    static func statsMembers(_ stats: PlayerStats) -> [(String, JSONValue)] {
        countMembers(stats) + [
            ("fouledOut", .bool(stats.fouledOut)), ("disqualified", .bool(stats.disqualified)),
        ]
    }

    /// The numeric members every line has (a player's, a team's sums).
    private static func countMembers(_ stats: PlayerStats) -> [(String, JSONValue)] {
        let numbers: [(String, Int)] = [
            ("points", stats.points), ("fieldGoalsMade", stats.fieldGoalsMade),
            ("fieldGoalsAttempted", stats.fieldGoalsAttempted), ("twoPointersMade", stats.twoPointersMade),
            ("twoPointersAttempted", stats.twoPointersAttempted), ("threePointersMade", stats.threePointersMade),
            ("threePointersAttempted", stats.threePointersAttempted), ("freeThrowsMade", stats.freeThrowsMade),
            ("freeThrowsAttempted", stats.freeThrowsAttempted), ("offensiveRebounds", stats.offensiveRebounds),
            ("defensiveRebounds", stats.defensiveRebounds), ("rebounds", stats.rebounds), ("assists", stats.assists),
            ("steals", stats.steals), ("blocks", stats.blocks), ("turnovers", stats.turnovers),
            ("fouls", stats.fouls), ("technicalFouls", stats.technicalFouls),
            ("unsportsmanlikeFouls", stats.unsportsmanlikeFouls), ("plusMinus", stats.plusMinus),
            ("secondsPlayed", stats.secondsPlayed), ("efficiency", stats.efficiency),
        ]
        return numbers.map { ($0, .int($1)) }
    }

    /// A player's `stats` object.
    static func statsJSON(_ stats: PlayerStats) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: statsMembers(stats)))
    }

    /// A team's `homeStats`/`awayStats` object: the players' sums plus the team's own line.
    static func teamStatsJSON(_ stats: TeamStats) -> JSONValue {
        var members = Dictionary(uniqueKeysWithValues: countMembers(stats.players))
        members["teamRebounds"] = .int(stats.teamRebounds)
        members["teamTurnovers"] = .int(stats.teamTurnovers)
        members["coachTechnicals"] = .int(stats.coachTechnicals)
        members["benchTechnicals"] = .int(stats.benchTechnicals)
        members["coachDisqualified"] = .bool(stats.coachDisqualified)
        return .object(members)
    }

    /// `[[home, away], …]`, one pair per period from the first.
    static func periodScoresJSON(_ scores: [ScoreLine]) -> JSONValue {
        .array(scores.map { [.int($0.home), .int($0.away)] })
    }
}
