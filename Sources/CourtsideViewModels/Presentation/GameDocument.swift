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

    /// PLAYER's count members (the tutorial's names) and the move each counts.
    static let countFields: [(String, PlayerMove)] = [
        ("onePointMoveCount", .onePoint), ("twoPointMoveCount", .twoPoints), ("assistMoveCount", .assist),
        ("reboundMoveCount", .rebound), ("foulMoveCount", .foul),
    ]

    /// The members that never change; the presenter's observers fill in the rest.
    static func skeleton(of viewModel: GameScoreboardEditorViewModel) -> JSONValue {
        func players(_ list: [PlayerScoreboardMoveEditorViewModel]) -> JSONValue {
            .array(list.map { ["id": .string($0.playerID.rawValue), "playerName": .string($0.playerName)] })
        }
        return [
            "id": .string(viewModel.gameID.rawValue),
            "homeTeam": .string(viewModel.homeTeam),
            "awayTeam": .string(viewModel.awayTeam),
            "rules": rulesJSON(viewModel.rules),
            "homePlayers": players(viewModel.homePlayers),
            "awayPlayers": players(viewModel.awayPlayers),
        ]
    }

    static func clockJSON(_ clock: ClockData) -> JSONValue {
        [
            "running": .bool(clock.running), "elapsedMs": .int(Int(clock.elapsedMs)),
            "asOf": .int(Int(clock.asOf.milliseconds)),
        ]
    }

    /// `{"preset":"fiba3x3","targetScore":21,"winBy":1,"timeLimitMs":600000}`; `timeLimitMs` is null when untimed.
    static func rulesJSON(_ rules: Rules) -> JSONValue {
        [
            "preset": .string(rules.preset.rawValue), "targetScore": .int(rules.targetScore),
            "winBy": .int(rules.winBy),
            "timeLimitMs": rules.timeLimitMs.map { .int(Int($0)) } ?? .null,
        ]
    }
}
