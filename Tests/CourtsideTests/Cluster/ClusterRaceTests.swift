import CourtsideRedis
import CourtsideRedisClient
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import CourtsideNet

/// Two scorers on two nodes racing on one game (docs/cluster.md): one history, each command id applied once.
@Suite(
    "Cluster: racing scorers", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterRaceTests {
    @Test("scorers on A and B interleave: every command is acked once, one history, the same documents everywhere")
    func racingScorers() throws {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let nodeB = try ClusterNode.start("B", on: redis)
        let game = try nodeA.createGame([
            "homeTeam": "A", "homePlayers": ["a", "b", "c"], "awayTeam": "B", "awayPlayers": ["d", "e", "f"],
            "rules": ["preset": "custom", "targetScore": 999],
        ])
        _ = try nodeB.waitForGame(game.id)
        let spectators = [
            try WebSocketClient(port: nodeA.port, path: "/ws/games/\(game.id)"),
            try WebSocketClient(port: nodeB.port, path: "/ws/games/\(game.id)"),
        ]
        let scorers = [try nodeA.scorer(game), try nodeB.scorer(game)]
        let rounds = 25
        var sent: [[String]] = [[], []]
        for round in 0..<rounds {
            for side in 0..<2 {
                let id = "\(side == 0 ? "a" : "b")\(round)"
                try scorers[side].send(json: command(id, move: "onePoint", player: side == 0 ? "home-0" : "away-0"))
                sent[side].append(id)
            }
            // The same command id through both nodes (a scorer retrying through another node): stored once.
            if round % 5 == 0 {
                for side in 0..<2 {
                    try scorers[side].send(json: command("both\(round)", move: "rebound", player: "home-1"))
                    sent[side].append("both\(round)")
                }
            }
        }
        var acks: [[String: Int]] = [[:], [:]]
        for side in 0..<2 {
            while acks[side].count < sent[side].count {
                let answer = try scorers[side].readJSON()
                guard let id = answer["id"]?.stringValue, answer["type"] != "patch" else { continue }
                #expect(answer["type"] == "ack", "\(answer)")
                #expect(acks[side][id] == nil, "\(id) answered twice")
                acks[side][id] = answer["seq"]?.intValue ?? -1
            }
        }
        let distinct = Set(sent[0] + sent[1]).count
        for round in stride(from: 0, to: rounds, by: 5) {
            #expect(acks[0]["both\(round)"] == acks[1]["both\(round)"], "both\(round) acked with two numbers")
        }
        let allSeqs = Set(acks[0].values).union(acks[1].values)
        #expect(allSeqs == Set(1...distinct), "every batch has its own number, without a gap")

        // The nodes did race: some appends met another node's write and caught up from the game's stream.
        let catchUps = try [nodeA, nodeB].map { node in
            try node.request("GET", "/metrics").text.split(separator: "\n")
                .first { $0.hasPrefix("courtside_shared_catch_ups_total ") }
                .flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        }
        #expect(catchUps.reduce(0, +) > 0, "no sequence conflict happened: the race was not exercised")

        // One history in Redis: each command id once, events contiguous.
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let client = try RedisClient(url: RedisURL(parsing: redis.url()), loop: group.loops[0])
        defer { client.close() }
        #expect(
            try client.sendAndWait(RESPCommand("XLEN", .string("courtside:events:{\(game.id)}"))).integer
                == Int64(distinct))
        #expect(
            try client.sendAndWait(RESPCommand("HLEN", .string("courtside:cids:{\(game.id)}"))).integer
                == Int64(distinct))

        // Every spectator, on either node, saw every patch in order and holds the same document as both nodes.
        let final = try nodeA.waitForGame(game.id, seq: distinct)
        #expect(try nodeB.waitForGame(game.id, seq: distinct) == final)
        #expect(final["state"]?["homeScore"]?.intValue == rounds)
        #expect(final["state"]?["awayScore"]?.intValue == rounds)
        for spectator in spectators {
            var mirror = DocumentMirror()
            while mirror.seq < distinct { try mirror.take(try spectator.readJSON()) }
            #expect(mirror.snapshots == 1)
            #expect(mirror.state == final["state"])
        }
    }

    @Test("the time limit is reached once: every node's timer fires, one tick is stored, the others catch up")
    func oneTickWins() throws {
        let redis = try RedisServer()
        let nodes = [
            try ClusterNode.start("A", on: redis), try ClusterNode.start("B", on: redis),
            try ClusterNode.start("C", on: redis),
        ]
        let game = try nodes[0].createGame([
            "homeTeam": "A", "homePlayers": ["a", "b", "c"], "awayTeam": "B", "awayPlayers": ["d", "e", "f"],
            "rules": ["preset": "custom", "targetScore": 999, "timeLimitMs": 1_000],
        ])
        for node in nodes.dropFirst() { _ = try node.waitForGame(game.id) }
        let scorer = try nodes[0].scorer(game)
        try scorer.send(json: command("c1", move: "onePoint"))
        #expect(try scorer.nextAnswer()["seq"] == 1)
        try scorer.send(json: ["type": "clock", "id": "go", "action": "start"])
        #expect(try scorer.nextAnswer()["seq"] == 2)
        // Every node holds the running clock and arms its own timer for the limit, a second away.
        let final = try nodes[0].waitForGame(game.id, seq: 3, within: .seconds(10))
        #expect(final["state"]?["winner"] == "home", "the team ahead wins at the limit")
        for node in nodes.dropFirst() { #expect(try node.waitForGame(game.id, seq: 3) == final) }
        // One limit event in the log. (That a losing tick never lands later, after its catch-up, is proven without
        // waiting by `GameOwnerTraceTests.oneTickWins`, whose nodes run on manual schedulers.)
        let entries = try redisReply(redis, RESPCommand("XRANGE", .string("courtside:events:{\(game.id)}"), "-", "+"))
        let kinds = (entries.elements ?? []).map { entry in
            String(decoding: entry.elements?[1].elements?[5].bytes ?? [], as: UTF8.self)
        }
        #expect(kinds.count == 3, "\(kinds)")
        #expect(kinds.filter { $0.contains("timeLimitReached") }.count == 1, "\(kinds)")
        for node in nodes { #expect(try node.snapshot(game.id)["seq"] == 3) }
    }
}
