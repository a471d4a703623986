import CourtsideTestSupport
import Foundation
import Testing

@testable import Courtside

/// A spectator resumes on a node that is behind the one it watched (the cluster test's `kills/followers`: its node
/// was killed, and the node Caddy sent it to had not yet read the last batches from the feed).
@Suite(
    "Cluster: resuming on a node that is behind", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterResumeBehindTests {
    @Test("since= above the node's seq: the node catches up from the game's stream and sends the patches after it")
    func resumeAheadOfTheNode() throws {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let nodeB = try ClusterNode.start("B", on: redis)
        let game = try nodeA.createGame()
        _ = try nodeB.waitForGame(game.id, seq: 0)
        // B stops reading the feed: it stays at 0 while A goes on (a feed that lags, without timing).
        try #require(nodeB.app.tailer != nil)
        nodeB.app.tailer?.stop()
        let scorer = try nodeA.scorer(game)
        for index in 0..<4 { try scorer.send(json: command("c\(index)", move: "onePoint")) }
        var acks = 0
        while acks < 4 { if try scorer.nextAnswer()["type"] == "ack" { acks += 1 } }
        #expect(try nodeB.snapshot(game.id)["seq"] == 0, "B should still be behind")

        // The spectator saw 2 on A: B answers 3 and 4, never its snapshot at 0.
        let resumed = try WebSocketClient(port: nodeB.port, path: "/ws/games/\(game.id)?since=2")
        let first = try resumed.readJSON()
        #expect(first["type"] == "patch" && first["seq"] == 3, "\(first["type"] ?? nil) \(first["seq"] ?? nil)")
        let second = try resumed.readJSON()
        #expect(second["type"] == "patch" && second["seq"] == 4)
        // B caught up on the way: it now serves A's document.
        #expect(try nodeB.snapshot(game.id)["state"] == (try nodeA.snapshot(game.id))["state"])
    }

    @Test("since= above anything stored: after the bounded wait the node answers with its snapshot")
    func resumeAheadOfTheLog() throws {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let game = try nodeA.createGame()
        let started = ContinuousClock.now
        let resumed = try WebSocketClient(port: nodeA.port, path: "/ws/games/\(game.id)?since=40")
        let first = try resumed.readJSON()
        let waited = ContinuousClock.now - started
        #expect(first["type"] == "snapshot" && first["seq"] == 0)
        // One to two periods of 750 ms, with room for a slow machine (never the 5 s read timeout).
        #expect(waited >= .milliseconds(700) && waited < .seconds(4), "\(waited)")
        #expect(nodeA.logLines.all.contains { $0.contains("a resume is answered with an older snapshot") })
    }

    @Test("since= far beyond the window: every spectator gets the snapshot at once, and the game logs it once")
    func farAheadIsLoggedOnce() throws {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let game = try nodeA.createGame()
        for index in 0..<40 {
            let since = 1_000_000 + index
            let resumed = try WebSocketClient(port: nodeA.port, path: "/ws/games/\(game.id)?since=\(since)")
            let first = try resumed.readJSON()
            #expect(first["type"] == "snapshot" && first["seq"] == 0, "spectator \(index)")
        }
        let warnings = nodeA.logLines.all.filter { $0.contains("a resume is answered with an older snapshot") }
        #expect(warnings.count == 1, "\(warnings.count) warnings")
    }
}
