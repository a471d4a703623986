import Courtside
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@Suite("The archive: finished games leave the lobby and stay readable", .ownThread)
struct ArchiveTests {
    /// A custom game a single two-pointer finishes.
    static let shortGame: JSONValue = [
        "homeTeam": "A", "homePlayers": ["a", "b", "c"], "awayTeam": "B", "awayPlayers": ["d", "e", "f"],
        "rules": ["preset": "custom", "targetScore": 2],
    ]

    func post(_ app: TestApp, _ game: (id: String, token: String), _ body: JSONValue) throws -> JSONValue {
        try app.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"], json: body
        ).json
    }

    @Test("a finished game is archived after --archive-after: off the lobby, listed as archived, refusing commands")
    func archives() async throws {
        let app = try TestApp(configure: { $0.archiveAfter = .milliseconds(300) })
        let finished = try app.createGame(Self.shortGame)
        let playing = try app.createGame(Self.shortGame)
        #expect(try post(app, finished, command("c1"))["type"] == "ack")
        #expect(try post(app, playing, command("c1", move: "onePoint"))["type"] == "ack")
        let live = try app.request("GET", "/api/games?status=live").json["games"]?.arrayValue?.map { $0["id"] }
        #expect(live == [.string(playing.id)])
        var archived: [JSONValue] = []
        _ = try eventually {
            archived = try app.request("GET", "/api/games?status=archived").json["games"]?.arrayValue ?? []
            return !archived.isEmpty
        }
        #expect(archived.map { $0["id"] } == [.string(finished.id)])
        #expect(archived.first?["status"] == "archived")
        #expect(
            try app.request("GET", "/api/games").json["games"]?.arrayValue?.map { $0["id"] } == [.string(playing.id)])
        #expect(try post(app, finished, command("c2"))["code"] == "game_archived")
        // Still readable: its document, its plays and its box score.
        #expect(try app.snapshot(finished.id)["state"]?["homeScore"] == 2)
        #expect(try app.request("GET", "/api/games/\(finished.id)/plays").status == 200)
        #expect(try app.request("GET", "/api/games/\(finished.id)/boxscore.csv").status == 200)
        #expect(try app.request("GET", "/api/games?status=final").json["games"] == [])
        #expect(try app.request("GET", "/api/games?status=paused").json["code"] == "bad_status")
    }

    @Test("the archive survives a restart; with --archive-after 0 nothing is archived")
    func restartAndOff() async throws {
        let directory = TestApp.makeTemporaryDirectory()
        var id = ""
        do {
            let app = try TestApp(dataDirectory: directory, configure: { $0.archiveAfter = .milliseconds(100) })
            let game = try app.createGame(Self.shortGame)
            id = game.id
            #expect(try post(app, game, command("c1"))["type"] == "ack")
            #expect(try eventually { try app.request("GET", "/api/games?status=archived").json["games"] != [] })
        }
        let app = try TestApp(dataDirectory: directory, configure: { $0.archiveAfter = .zero })
        #expect(
            try app.request("GET", "/api/games?status=archived").json["games"]?.arrayValue?.map { $0["id"] }
                == [.string(id)])
        let other = try app.createGame(Self.shortGame)
        #expect(try post(app, other, command("c1"))["type"] == "ack")
        await pause(for: .milliseconds(300))
        #expect(try app.request("GET", "/api/games?status=final").json["games"]?.arrayValue?.count == 1)
    }
}
