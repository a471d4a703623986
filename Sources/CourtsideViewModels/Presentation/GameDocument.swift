import CourtsideModel

/// The layout of a game's presentation document (STATE in docs/protocol.md): member names and paths, in one place.
enum GameDocument {
    static let time = JSONPointer(tokens: ["time"])
    static let score = JSONPointer(tokens: ["score"])
    static let homeScore = JSONPointer(tokens: ["homeScore"])
    static let awayScore = JSONPointer(tokens: ["awayScore"])
    static let isPaused = JSONPointer(tokens: ["isPaused"])
    static let isFinished = JSONPointer(tokens: ["isFinished"])
    static let winner = JSONPointer(tokens: ["winner"])
    static let clock = JSONPointer(tokens: ["clock"])
    static let plays = JSONPointer(tokens: ["plays"])

    /// PLAYER's count members (the tutorial's names) and the move each counts.
    static let countFields: [(String, PlayerMove)] = [
        ("onePointMoveCount", .onePoint), ("twoPointMoveCount", .twoPoints), ("assistMoveCount", .assist),
        ("reboundMoveCount", .rebound), ("foulMoveCount", .foul),
    ]

    /// The members that never change; the presenter's observers fill in the rest.
    static func skeleton(of viewModel: GameScoreboardEditorViewModel) -> JSONValue {
        func players(_ list: [PlayerScoreboardMoveEditorViewModel]) -> JSONValue {
            .array(
                list.map {
                    [
                        "id": .string($0.playerID.rawValue), "playerName": .string($0.playerName),
                        "number": $0.number.map { .string($0) } ?? .null,
                    ]
                })
        }
        return [
            "id": .string(viewModel.gameID.rawValue),
            "homeTeam": .string(viewModel.homeTeam),
            "awayTeam": .string(viewModel.awayTeam),
            "homeColor": .string(viewModel.game.homeTeam.color),
            "awayColor": .string(viewModel.game.awayTeam.color),
            "homeShort": .string(viewModel.game.homeTeam.shortName),
            "awayShort": .string(viewModel.game.awayTeam.shortName),
            "rules": rulesJSON(viewModel.rules),
            "homePlayers": players(viewModel.homePlayers),
            "awayPlayers": players(viewModel.awayPlayers),
            "plays": [],
        ]
    }

    static func clockJSON(_ clock: ClockData) -> JSONValue {
        [
            "running": .bool(clock.running), "elapsedMs": .int(Int(clock.elapsedMs)),
            "asOf": .int(Int(clock.asOf.milliseconds)),
            "periodLengthMs": clock.periodLengthMs.map { .int(Int($0)) } ?? .null,
        ]
    }

    /// The top-level members that ``GameStatus`` fills, with their values (`null` where the rules do not use them).
    static func statusMembers(_ status: GameStatus) -> [(String, JSONValue)] {
        func int(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }
        func bool(_ value: Bool?) -> JSONValue { value.map { .bool($0) } ?? .null }
        return [
            ("period", int(status.period)),
            ("isOvertime", bool(status.isOvertime)),
            ("shotClock", status.shotClock.map(shotClockJSON) ?? .null),
            ("homeTeamFouls", int(status.teamFouls?.home)), ("awayTeamFouls", int(status.teamFouls?.away)),
            ("homeInPenalty", bool(status.inPenalty?.home)), ("awayInPenalty", bool(status.inPenalty?.away)),
            ("homeTimeoutsLeft", int(status.timeoutsLeft?.home)), ("awayTimeoutsLeft", int(status.timeoutsLeft?.away)),
            ("possession", status.possession.map { .string($0.rawValue) } ?? .null),
            ("isLocked", .bool(status.isLocked)),
        ]
    }

    /// `{"enabled","running","remainingMs","asOf"}`.
    static func shotClockJSON(_ shotClock: ShotClockData) -> JSONValue {
        [
            "enabled": .bool(shotClock.enabled), "running": .bool(shotClock.running),
            "remainingMs": .int(Int(shotClock.remainingMs)),
            "asOf": shotClock.asOf.map { .int(Int($0.milliseconds)) } ?? .null,
        ]
    }

    /// PLAY: `{"play","seq","period","elapsedMs","at","team","player","move","edited","deleted"}`.
    static func playJSON(_ row: PlayRow) -> JSONValue {
        let play = row.play
        return [
            "play": .int(play.number), "seq": row.seq.map { .int($0) } ?? .null,
            "period": row.period.map { .int($0) } ?? .null, "elapsedMs": .int(Int(play.elapsedMs)),
            "at": .int(Int(play.at.milliseconds)), "team": .string(play.team.rawValue),
            "player": .string(play.player.rawValue), "move": .string(play.move.rawValue),
            "edited": .bool(play.isEdited), "deleted": .bool(play.isDeleted),
        ]
    }

    /// `{"preset":"fiba3x3","targetScore":21,"winBy":1,"timeLimitMs":600000}`; `timeLimitMs` is null when untimed.
    static func rulesJSON(_ rules: Rules) -> JSONValue {
        [
            "preset": .string(rules.preset.rawValue), "targetScore": rules.targetScore.map { .int($0) } ?? .null,
            "winBy": .int(rules.winBy),
            "timeLimitMs": rules.timeLimitMs.map { .int(Int($0)) } ?? .null,
            "periods": .int(rules.periodCount),
            "overtimeLengthMs": rules.overtimeLengthMs.map { .int(Int($0)) } ?? .null,
            "shotClockMs": rules.shotClock.map { .int(Int($0.lengthMs)) } ?? .null,
            "shotClockResetMs": rules.shotClock?.shortResetMs.map { .int(Int($0)) } ?? .null,
            "penaltyFrom": rules.teamFouls.map { .int($0.penaltyFrom) } ?? .null,
            "onCourt": rules.roster.onCourt.map { .int($0) } ?? .null,
        ]
    }
}
