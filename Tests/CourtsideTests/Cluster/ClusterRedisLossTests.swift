import CourtsideRedis
import CourtsideRedisClient
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import CourtsideNet

/// Redis is killed under two nodes and comes back (docs/redis.md): commands are answered `unavailable` within
/// seconds, never acked or left hanging; spectators keep their state; `/healthz` fails with reason `redis` and
/// recovers; the same command id retried afterwards is stored and acked once, and both nodes converge.
@Suite(
    "Cluster: Redis lost and back", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterRedisLossTests {
    @Test("kill -9 of Redis: unavailable within seconds, /healthz 503 redis, then back: the retried id acked once")
    func redisKilledAndBack() throws {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let nodeB = try ClusterNode.start("B", on: redis)
        let game = try nodeA.createGame()
        _ = try nodeB.waitForGame(game.id)
        let spectator = try WebSocketClient(port: nodeB.port, path: "/ws/games/\(game.id)")
        var mirror = DocumentMirror()
        try mirror.take(try spectator.readJSON())
        let scorer = try nodeA.scorer(game)
        try scorer.send(json: command("c1"))
        #expect(try scorer.nextAnswer()["seq"] == 1)
        while mirror.seq < 1 { try mirror.take(try spectator.readJSON()) }
        for node in [nodeA, nodeB] { #expect(try node.request("GET", "/healthz").status == 200) }

        redis.kill9()
        let sent = ContinuousClock.now
        try scorer.send(json: command("c2"))
        let refused = try scorer.nextAnswer()
        #expect(refused["type"] == "error" && refused["code"] == "unavailable", "\(refused)")
        #expect(ContinuousClock.now - sent < .seconds(5), "the answer took \(ContinuousClock.now - sent)")
        for node in [nodeA, nodeB] {
            #expect(try eventually(within: .seconds(8)) { try node.request("GET", "/healthz").status == 503 })
            let health = try node.request("GET", "/healthz").json
            #expect(health["reasons"]?.arrayValue?.contains("redis") == true, "\(health)")
        }
        // Spectators keep the last state: both nodes still serve seq 1 with c1's basket.
        #expect(try nodeB.snapshot(game.id)["seq"] == 1)
        #expect(try nodeA.snapshot(game.id)["state"]?["homeScore"] == 2)

        try redis.restart()
        for node in [nodeA, nodeB] {
            #expect(try eventually(within: .seconds(10)) { try node.request("GET", "/healthz").status == 200 })
        }
        // The scorer retries c2 until it is acked (the first tries may still meet the reconnecting client), then
        // once more: the same seq, stored once.
        var ack: JSONValue = .null
        #expect(
            try eventually(within: .seconds(10)) {
                try scorer.send(json: command("c2"))
                ack = try scorer.nextAnswer()
                return ack["type"] == "ack"
            })
        #expect(ack["seq"] == 2)
        try scorer.send(json: command("c2"))
        #expect(try scorer.nextAnswer() == ack)
        while mirror.seq < 2 { try mirror.take(try spectator.readJSON()) }
        #expect(mirror.state == (try nodeA.snapshot(game.id))["state"])
        #expect(try nodeB.waitForGame(game.id, seq: 2) == (try nodeA.snapshot(game.id)))

        #expect(try redisReply(redis, RESPCommand("XLEN", .string("courtside:events:{\(game.id)}"))).integer == 2)
    }
}
