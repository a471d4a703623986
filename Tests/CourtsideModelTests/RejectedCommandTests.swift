import CourtsideModel
import Testing

@Suite("Rejected commands leave the game untouched")
struct RejectedCommandTests {
    /// A game in some state, a command it must refuse, and the error it must give.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let prepare: @Sendable () throws -> Game
        let command: GameCommand
        let now: Int64
        let expected: GameError
        let code: String

        var testDescription: String { name }
    }

    static func finishedGame() throws -> Game {
        var game = makeGame(try .custom(targetScore: 2))
        try game.run(.clock(.start), at: 0)
        try game.move(awayAce, .twoPoints, at: 1_000)
        return game
    }

    static let cases: [Case] = [
        Case(
            name: "move after the game finished", prepare: finishedGame, command: .move(homeAce, .onePoint, id: "x"),
            now: 2_000, expected: .moveAfterFinish(winner: .away), code: "game_finished"),
        Case(
            name: "non-scoring move after the game finished", prepare: finishedGame,
            command: .move(homeAce, .foul, id: "x"), now: 2_000, expected: .moveAfterFinish(winner: .away),
            code: "game_finished"),
        Case(
            name: "clock start after the game finished", prepare: finishedGame, command: .startClock(id: "x"),
            now: 2_000, expected: .clockStartAfterFinish(winner: .away), code: "game_finished"),
        Case(
            name: "clock pause after the game finished", prepare: finishedGame, command: .pauseClock(id: "x"),
            now: 2_000, expected: .clockNotRunning, code: "clock_stopped"),
        Case(
            name: "unknown player", prepare: { makeGame() }, command: .move("home-3", .onePoint, id: "x"),
            now: 0, expected: .unknownPlayer("home-3"), code: "unknown_player"),
        Case(
            name: "unknown player in a finished game", prepare: finishedGame,
            command: .move("referee", .foul, id: "x"), now: 2_000, expected: .unknownPlayer("referee"),
            code: "unknown_player"),
        Case(
            name: "undo in a new game", prepare: { makeGame() }, command: .undo(id: "x"), now: 0,
            expected: .nothingToUndo, code: "nothing_to_undo"),
        Case(
            name: "undo after every move was undone",
            prepare: {
                var game = makeGame()
                try game.move(homeAce, .onePoint)
                try game.run(.undo)
                return game
            }, command: .undo(id: "x"), now: 0, expected: .nothingToUndo, code: "nothing_to_undo"),
        Case(
            name: "undo with only clock commands recorded",
            prepare: {
                var game = makeGame()
                try game.run(.clock(.start))
                return game
            }, command: .undo(id: "x"), now: 0, expected: .nothingToUndo, code: "nothing_to_undo"),
        Case(
            name: "clock start while running",
            prepare: {
                var game = makeGame()
                try game.run(.clock(.start))
                return game
            }, command: .startClock(id: "x"), now: 10, expected: .clockAlreadyRunning, code: "clock_running"),
        Case(
            name: "clock pause while stopped", prepare: { makeGame() }, command: .pauseClock(id: "x"), now: 0,
            expected: .clockNotRunning, code: "clock_stopped"),
        Case(
            name: "move after the time limit passed with a team ahead",
            prepare: {
                var game = makeGame(.fiba3x3)
                try game.run(.clock(.start), at: 0)
                try game.move(homeAce, .onePoint, at: 10)
                return game
            }, command: .move(awayAce, .twoPoints, id: "x"), now: 700_000, expected: .moveAfterFinish(winner: .home),
            code: "game_finished"),
        Case(
            name: "clock pause after the time limit passed",
            prepare: {
                var game = makeGame(.fiba3x3)
                try game.run(.clock(.start), at: 0)
                return game
            }, command: .pauseClock(id: "x"), now: 700_000, expected: .clockNotRunning, code: "clock_stopped"),
    ]

    @Test("the command is refused with its error and code, and the game is equal to before", arguments: cases)
    func refusedCommand(_ testCase: Case) throws {
        var game = try testCase.prepare()
        let before = game
        #expect(throws: testCase.expected) {
            try game.apply(testCase.command, at: at(testCase.now))
        }
        #expect(game == before)
        #expect(testCase.expected.code.rawValue == testCase.code)
    }

    @Test("a command id reused for a different command is refused and changes nothing")
    func reusedCommandID() throws {
        var game = makeGame()
        let accepted = try game.apply(.move(homeAce, .onePoint, id: "c1"), at: at(0))
        let before = game
        #expect(throws: GameError.commandIDReused("c1", accepted: accepted.event)) {
            try game.apply(.move(homeAce, .twoPoints, id: "c1"), at: at(1))
        }
        #expect(throws: GameError.commandIDReused("c1", accepted: accepted.event)) {
            try game.apply(.undo(id: "c1"), at: at(1))
        }
        #expect(game == before)
        #expect(GameError.commandIDReused("c1", accepted: accepted.event).code == .commandIDReused)
    }

    @Test("wire codes are stable strings")
    func stableCodes() {
        #expect(
            ModelErrorCode.allCases.map(\.rawValue) == [
                "game_finished", "unknown_player", "nothing_to_undo", "clock_running", "clock_stopped",
                "command_id_reused", "unknown_game", "game_archived", "duplicate_game_id", "game_locked",
                "not_in_rules", "no_timeouts_left", "shot_clock_running", "shot_clock_stopped", "shot_clock_off",
                "out_of_range", "unknown_play", "play_deleted", "wrong_team", "not_on_court", "already_on_court",
                "not_locked", "move_not_in_rules", "player_not_eligible", "not_allowed_for_role", "member_revoked",
                "unknown_member", "crew_full", "invalid_crew_member", "under_review", "not_under_review",
                "not_in_conflict", "no_second_entry", "play_in_conflict", "unconfirmed_plays",
            ])
    }
}
