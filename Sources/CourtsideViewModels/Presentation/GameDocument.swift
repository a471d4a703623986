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
    static let conflicts = JSONPointer(tokens: ["conflicts"])

    /// PLAYER's count members (the tutorial's names) and the move each counts.
    static let countFields: [(String, PlayerMove)] = [
        ("onePointMoveCount", .onePoint), ("twoPointMoveCount", .twoPoints), ("assistMoveCount", .assist),
        ("reboundMoveCount", .rebound), ("foulMoveCount", .foul),
    ]

    /// The members that never change (the game's id, teams, rosters and rules); the presenter's writes fill in the
    /// rest.
    static func skeleton(id: GameID, home: Team, away: Team, rules: Rules) -> JSONValue {
        func players(_ team: Team) -> JSONValue {
            .array(
                team.players.map {
                    [
                        "id": .string($0.id.rawValue), "playerName": .string($0.name),
                        "number": $0.number.map { .string($0) } ?? .null,
                    ]
                })
        }
        return [
            "id": .string(id.rawValue),
            "homeTeam": .string(home.name),
            "awayTeam": .string(away.name),
            "homeColor": .string(home.color),
            "awayColor": .string(away.color),
            "homeShort": .string(home.shortName),
            "awayShort": .string(away.shortName),
            "rules": rulesJSON(rules),
            "homePlayers": players(home),
            "awayPlayers": players(away),
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
        let members: [String: JSONValue] = [
            "play": .int(play.number), "seq": row.seq.map { .int($0) } ?? .null,
            "period": row.period.map { .int($0) } ?? .null, "elapsedMs": .int(Int(play.elapsedMs)),
            "at": .int(Int(play.at.milliseconds)), "team": .string(play.team.rawValue),
            "player": .string(play.player.rawValue), "move": .string(play.move.rawValue),
            "edited": .bool(play.isEdited), "deleted": .bool(play.isDeleted),
        ]
        return .object(members.merging(confirmationMembers(play)) { _, new in new })
    }

    /// With two scorers: `"pending":true` and `"confirmBy"` (server ms) while a play waits for the other scorer,
    /// `"pending":true` and `"conflict":true` while they disagree (it counts nothing: pages for spectators leave
    /// such plays out); nothing once it counts, so a game without dual confirmation shows the plays it always did.
    static func confirmationMembers(_ play: Play) -> [String: JSONValue] {
        switch play.check {
        case .pending(let confirmBy)?: ["pending": true, "confirmBy": .int(Int(confirmBy.milliseconds))]
        case .conflict?: ["pending": true, "conflict": true]
        case .confirmed?, .resolved?, nil: [:]
        }
    }

    /// CONFLICT: `{"play":P,"first":ENTRY,"second":ENTRY|null}`, ENTRY `{"team","player","move"}`: the play as the
    /// first scorer entered it, and the other scorer's different entry (null when none came within the window).
    static func conflictJSON(_ play: Play) -> JSONValue {
        guard case .conflict(let second)? = play.check else {
            preconditionFailure("Invalid state: play \(play.number) is not in conflict")
        }
        func entry(team: TeamSide, player: PlayerID, move: PlayerMove) -> JSONValue {
            ["team": .string(team.rawValue), "player": .string(player.rawValue), "move": .string(move.rawValue)]
        }
        return [
            "play": .int(play.number), "first": entry(team: play.team, player: play.player, move: play.move),
            "second": second.map { entry(team: $0.team, player: $0.player, move: $0.move) } ?? .null,
        ]
    }

    /// `{"preset":"fiba3x3","targetScore":21,"winBy":1,"timeLimitMs":600000}`; `timeLimitMs` is null when untimed.
    static func rulesJSON(_ rules: Rules) -> JSONValue {
        let members: [String: JSONValue] = [
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
        // Only with two scorers, so that other games' documents stay as they were.
        guard let dual = rules.dualConfirmation else { return .object(members) }
        return .object(
            members.merging(["confirmation": "dual", "confirmWindowMs": .int(Int(dual.windowMs))]) { _, new in new })
    }
}
