import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import Courtside

@Suite("Archived games restored at start are built on their first read", .ownThread)
struct ArchiveDormantTests {
    /// A game archived in `directory` by a first server, with its document and box score as that server answered.
    func archivedGame(in directory: String) throws -> (
        id: String, token: String, document: JSONValue, boxScore: [UInt8]
    ) {
        let app = try TestApp(dataDirectory: directory, configure: { $0.archiveAfter = .milliseconds(100) })
        let game = try app.createGame(ArchiveTests.shortGame)
        let ack = try app.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c1")
        ).json
        #expect(ack["type"] == "ack")
        #expect(try eventually { try app.request("GET", "/api/games?status=archived").json["games"] != [] })
        let boxScore = try app.request("GET", "/api/games/\(game.id)/boxscore.csv")
        #expect(boxScore.status == 200)
        return (game.id, game.token, try app.snapshot(game.id), boxScore.body)
    }

    @Test("after a restart an archived game has no owner until read; the archiver and the list do not build it")
    func dormantUntilRead() throws {
        let directory = TestApp.makeTemporaryDirectory()
        let before = try archivedGame(in: directory)
        let time = try SocketTimeByHand(dataDirectory: directory, configure: { $0.archiveAfter = .seconds(1) })
        let app = time.app
        let handle = try #require(app.app.core.registry.handle(GameID(before.id)))
        #expect(handle.isDormant)
        let live = try app.createGame(ArchiveTests.shortGame)
        #expect(app.app.core.registry.handle(GameID(live.id))?.isDormant == false)
        // The archiver's checks pass over it, and listing the archive reads only its summary.
        try time.advance(by: .seconds(30))
        let listed = try app.request("GET", "/api/games?status=archived").json["games"]?.arrayValue
        #expect(listed?.map { $0["id"] } == [.string(before.id)])
        #expect(listed?.first?["homeScore"] == 2)
        #expect(handle.isDormant)
        // The first read builds it and answers what the server answered before the restart.
        #expect(try app.snapshot(before.id) == before.document)
        #expect(!handle.isDormant)
        #expect(try app.request("GET", "/api/games/\(before.id)/boxscore.csv").body == before.boxScore)
        let refused = try app.request(
            "POST", "/api/games/\(before.id)/commands", headers: ["Authorization": "Bearer \(before.token)"],
            json: command("c2")
        ).json
        #expect(refused["code"] == "game_archived")
    }

    @Test("a spectator joining a dormant archived game gets its document")
    func spectatorBuildsIt() throws {
        let directory = TestApp.makeTemporaryDirectory()
        let before = try archivedGame(in: directory)
        let app = try TestApp(dataDirectory: directory)
        let handle = try #require(app.app.core.registry.handle(GameID(before.id)))
        #expect(handle.isDormant)
        let spectator = try WebSocketClient(port: app.port, path: "/ws/games/\(before.id)")
        let first = try spectator.readJSON()
        #expect(first["type"] == "snapshot")
        #expect(first["state"]?["homeScore"] == 2)
        #expect(!handle.isDormant)
    }
}
