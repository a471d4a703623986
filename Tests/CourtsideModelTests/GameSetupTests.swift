import CourtsideModel
import Foundation
import Testing

@Suite("Game setup: teams, players and their ids")
struct GameSetupTests {
    @Test("players get stable positional ids and trimmed names")
    func playerIDs() throws {
        let setup = try GameSetup(
            id: "g", homeTeam: "  Hawks ", homePlayers: ["Ann", " Bo", "Cy "], awayTeam: "Owls",
            awayPlayers: ["Di", "Ed", "Fay"])
        #expect(setup.homeTeam.name == "Hawks")
        #expect(setup.homeTeam.players.map(\.id.rawValue) == ["home-0", "home-1", "home-2"])
        #expect(setup.awayTeam.players.map(\.id.rawValue) == ["away-0", "away-1", "away-2"])
        #expect(setup.homeTeam.players.map(\.name) == ["Ann", "Bo", "Cy"])
        #expect(setup.player("away-2")?.name == "Fay")
        #expect(setup.side(of: "away-2") == .away)
        #expect(setup.side(of: "away-3") == nil)
        #expect(PlayerID(side: .home, index: 2) == "home-2")
    }

    @Test(
        "invalid names and player counts are refused with the field at fault",
        arguments: [
            ("", ["a", "b", "c"], ["d", "e", "f"], GameSetupError.emptyTeamName(.home), "homeTeam"),
            ("   ", ["a", "b", "c"], ["d", "e", "f"], .emptyTeamName(.home), "homeTeam"),
            (
                String(repeating: "x", count: 41), ["a", "b", "c"], ["d", "e", "f"],
                .teamNameTooLong(.home, limit: 40), "homeTeam"
            ),
            ("A", ["a", "b"], ["d", "e", "f"], .wrongPlayerCount(.home, count: 2, allowed: 3...12), "homePlayers"),
            (
                "A", ["a", "b", "c"], (1...13).map { "p\($0)" }, .wrongPlayerCount(.away, count: 13, allowed: 3...12),
                "awayPlayers"
            ),
            ("A", ["a", "b", "c"], ["d", " ", "f"], .emptyPlayerName(.away, index: 1), "awayPlayers[1]"),
            (
                "A", [String(repeating: "y", count: 41), "b", "c"], ["d", "e", "f"],
                .playerNameTooLong(.home, index: 0, limit: 40), "homePlayers[0]"
            ),
        ] as [(String, [String], [String], GameSetupError, String)])
    func refusals(
        homeTeam: String, homePlayers: [String], awayPlayers: [String], expected: GameSetupError, field: String
    ) {
        #expect(throws: expected) {
            try GameSetup(
                id: "g", homeTeam: homeTeam, homePlayers: homePlayers, awayTeam: "B", awayPlayers: awayPlayers)
        }
        #expect(expected.field == field)
    }

    @Test("a setup round-trips through JSON and refuses invalid JSON")
    func json() throws {
        let setup = makeSetup(.fiba3x3)
        let data = try JSONEncoder().encode(setup)
        #expect(try JSONDecoder().decode(GameSetup.self, from: data) == setup)
        let invalid =
            #"{"id":"g","homeTeam":"","homePlayers":["a","b","c"],"awayTeam":"B","awayPlayers":["d","e","f"],"rules":{"preset":"pickup"}}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(GameSetup.self, from: Data(invalid.utf8))
        }
    }

    @Test("a new game is 0 - 0, paused, not finished, with every count at zero")
    func newGame() {
        let game = makeGame()
        #expect(game.score.description == "0 - 0")
        #expect(game.isPaused)
        #expect(!game.isFinished)
        #expect(game.winner == nil)
        #expect(game.events.isEmpty)
        #expect(game.elapsedMs(at: at(1_000)) == 0)
        for player in game.homeTeam.players + game.awayTeam.players {
            #expect(game.moveCounts(for: player.id) == MoveCounts())
        }
        #expect(game.moveCounts(for: "home-3") == nil)
    }
}
