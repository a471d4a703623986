import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import Courtside

@Suite(
    "Cluster: archiving a game is seen by every node", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterArchiveTests {
    func archivedIDs(_ node: TestApp) throws -> [JSONValue] {
        try node.request("GET", "/api/games?status=archived").json["games"]?.arrayValue?.compactMap { $0["id"] } ?? []
    }

    @Test("a game archived on A leaves B's lobby, is listed in B's archive and refused on B within a second")
    func archiveReachesEveryNode() throws {
        let redis = try RedisServer()
        // Only A archives on its own; B (archiving off) can learn it only from the shared feed.
        let nodeA = try ClusterNode.start("A", on: redis, configure: { $0.archiveAfter = .milliseconds(300) })
        let nodeB = try ClusterNode.start("B", on: redis, configure: { $0.archiveAfter = .zero })
        let game = try nodeA.createGame(ArchiveTests.shortGame)
        _ = try nodeB.waitForGame(game.id)
        let finish = try nodeA.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c1")
        ).json
        #expect(finish["type"] == "ack")
        #expect(try eventually { try archivedIDs(nodeA) == [.string(game.id)] })
        let archivedOnA = ContinuousClock.now
        #expect(try eventually(within: .seconds(1)) { try archivedIDs(nodeB) == [.string(game.id)] })
        #expect(ContinuousClock.now - archivedOnA < .seconds(1), "seen by B within a second")
        #expect(try nodeB.request("GET", "/api/games").json["games"] == [])
        let refused = try nodeB.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c2")
        ).json
        #expect(refused["code"] == "game_archived")
        #expect(try nodeB.snapshot(game.id)["state"]?["homeScore"] == 2, "still readable on B")
        // A node started now restores it archived without building its owner; the first read builds it.
        let nodeC = try ClusterNode.start("C", on: redis, configure: { $0.archiveAfter = .zero })
        let handle = try #require(nodeC.app.core.registry.handle(GameID(game.id)))
        #expect(handle.isDormant)
        #expect(try archivedIDs(nodeC) == [.string(game.id)])
        #expect(handle.isDormant)
        #expect(try nodeC.snapshot(game.id)["state"] == nodeA.snapshot(game.id)["state"])
        #expect(!handle.isDormant)
    }
}
