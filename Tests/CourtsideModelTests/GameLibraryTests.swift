import CourtsideModel
import Testing

@Suite("Game library: create, look up, list, archive")
struct GameLibraryTests {
    static func create(_ library: inout GameLibrary, _ rules: Rules = .pickup) throws -> GameID {
        try library.create(
            homeTeam: "Hawks", homePlayers: ["a", "b", "c"], awayTeam: "Owls", awayPlayers: ["d", "e", "f"],
            rules: rules
        ).id
    }

    @Test("created games get generated ids and are listed in creation order")
    func createAndList() throws {
        var library = GameLibrary()
        let first = try Self.create(&library)
        let second = try Self.create(&library, .fiba3x3)
        #expect(first == "game-1")
        #expect(second == "game-2")
        #expect(library.list().map(\.id) == [first, second])
        #expect(library.game(second)?.rules == .fiba3x3)
        #expect(library.game("game-9") == nil)
    }

    @Test("an invalid setup is refused and nothing is added")
    func invalidSetup() {
        var library = GameLibrary()
        #expect(throws: GameSetupError.emptyTeamName(.away)) {
            try library.create(
                homeTeam: "A", homePlayers: ["a", "b", "c"], awayTeam: "", awayPlayers: ["d", "e", "f"])
        }
        #expect(library.list().isEmpty)
    }

    @Test("games with injected ids are added; a taken id is refused and skipped by generated ids")
    func injectedIDs() throws {
        var library = GameLibrary()
        try library.add(makeGame(id: "game-1"))
        #expect(throws: GameLibraryError.duplicateGameID("game-1")) { try library.add(makeGame(id: "game-1")) }
        #expect(try Self.create(&library) == "game-2")
        #expect(library.list().count == 2)
    }

    @Test("archived games leave the list, stay readable and refuse commands")
    func archive() throws {
        var library = GameLibrary()
        let first = try Self.create(&library)
        let second = try Self.create(&library)
        try library.apply(.move("home-0", .onePoint, id: "c"), toGame: first, at: at(0))
        try library.archive(first)
        try library.archive(first)
        #expect(library.isArchived(first))
        #expect(library.list().map(\.id) == [second])
        #expect(library.list(includeArchived: true).map(\.id) == [first, second])
        #expect(library.game(first)?.score == ScoreLine(home: 1, away: 0))
        let before = library
        #expect(throws: GameLibraryError.gameArchived(first)) {
            try library.apply(.move("home-0", .onePoint, id: "d"), toGame: first, at: at(1))
        }
        #expect(library == before)
        #expect(throws: GameLibraryError.unknownGame("nope")) { try library.archive("nope") }
    }

    @Test("commands reach the game; refusals carry the game's error and code")
    func commands() throws {
        var library = GameLibrary()
        let id = try Self.create(&library)
        let outcome = try library.apply(.move("away-1", .twoPoints, id: "c1"), toGame: id, at: at(5))
        #expect(library.game(id)?.events == [outcome.event])
        let before = library
        do {
            try library.apply(.undo(id: "c2"), toGame: id, at: at(6))
            try library.apply(.undo(id: "c3"), toGame: id, at: at(7))
            Issue.record("a second undo was accepted")
        } catch {
            #expect(error == .rejected(id, .nothingToUndo))
            #expect(error.code == .nothingToUndo)
        }
        #expect(library != before)
        #expect(throws: GameLibraryError.unknownGame("x")) {
            try library.apply(.undo(id: "c4"), toGame: "x", at: at(8))
        }
        #expect(GameLibraryError.unknownGame("x").code.rawValue == "unknown_game")
    }

    @Test("time passes for live timed games only, at their deadlines")
    func advance() throws {
        var library = GameLibrary()
        let pickup = try Self.create(&library)
        let fiba = try Self.create(&library, .fiba3x3)
        let archivedFiba = try Self.create(&library, .fiba3x3)
        for id in [pickup, fiba, archivedFiba] {
            try library.apply(.startClock(id: "s"), toGame: id, at: at(1_000))
        }
        try library.archive(archivedFiba)
        #expect(library.nextDeadline == at(601_000))
        let tick1 = library.advance(to: at(600_999))
        #expect(tick1.isEmpty)
        let recorded = library.advance(to: at(700_000))
        #expect(recorded.map(\.gameID) == [fiba])
        #expect(recorded.first?.event.at == at(601_000))
        #expect(library.game(fiba)?.isOvertime == true)
        #expect(library.game(archivedFiba)?.isClockRunning == true)
        #expect(library.game(pickup)?.isClockRunning == true)
        #expect(library.nextDeadline == nil)
    }
}
