import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

/// Several nodes serve every game through one Redis (docs/cluster.md): a scorer on one node, spectators on others.
@Suite(
    "Cluster: nodes share games through Redis", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterFanOutTests {
    @Test("a game created on A appears on B; B's spectators get A's patches byte for byte, under the same numbers")
    func scorerOnASpectatorOnB() throws {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let nodeB = try ClusterNode.start("B", on: redis)
        let game = try nodeA.createGame()
        // B loads it from its creation entry: it is on B's lobby and served there before any move.
        let first = try nodeB.waitForGame(game.id, seq: 0)
        #expect(first["state"] == (try nodeA.snapshot(game.id))["state"])
        #expect(
            nodeB.logLines.all.contains { $0.contains("game loaded from the shared journal") && $0.contains("node=B") })
        let lobby = try nodeB.request("GET", "/api/games").json
        #expect(lobby["games"]?.arrayValue?.contains { $0["id"]?.stringValue == game.id } == true)

        let onA = try WebSocketClient(port: nodeA.port, path: "/ws/games/\(game.id)")
        let onB = try WebSocketClient(port: nodeB.port, path: "/ws/games/\(game.id)")
        #expect(try onA.readJSON()["seq"] == 0)
        #expect(try onB.readJSON()["seq"] == 0)
        let scorer = try nodeA.scorer(game)
        let moves = ["twoPoints", "assist", "rebound", "onePoint", "foul", "twoPoints"]
        for (index, move) in moves.enumerated() {
            try scorer.send(json: command("c\(index)", move: move, player: index % 2 == 0 ? "home-1" : "away-2"))
        }
        try scorer.send(json: ["type": "clock", "id": "clock-1", "action": "start"])
        try scorer.send(json: ["type": "undo", "id": "undo-1"])
        let total = moves.count + 2
        var acks: [Int] = []
        while acks.count < total {
            let answer = try scorer.readJSON()
            if answer["type"] == "ack", let seq = answer["seq"]?.intValue { acks.append(seq) }
        }
        #expect(acks == Array(1...total))
        for seq in 1...total {
            let fromA = try onA.readPatchFrame()
            let fromB = try onB.readPatchFrame()
            #expect(fromA.payload == fromB.payload, "patch \(seq) differs between the nodes")
            #expect(try JSONValue(parsing: fromB.payload)["seq"]?.intValue == seq)
        }
        // Both nodes hold the same document at the same number (B's copy advanced: its snapshot is right).
        let onNodeB = try nodeB.waitForGame(game.id, seq: total)
        #expect(onNodeB == (try nodeA.snapshot(game.id)))
        // A spectator joining B now resumes from B's window, and a command on B continues the numbering.
        let late = try WebSocketClient(port: nodeB.port, path: "/ws/games/\(game.id)?since=\(total - 2)")
        #expect(try late.readJSON()["seq"]?.intValue == total - 1)
        let scorerB = try nodeB.scorer(game)
        try scorerB.send(json: command("on-b", move: "onePoint", player: "away-0"))
        var answer = try scorerB.readJSON()
        while answer["type"] == "patch" || answer["type"] == "snapshot" { answer = try scorerB.readJSON() }
        #expect(answer["type"] == "ack" && answer["seq"]?.intValue == total + 1, "\(answer)")
        let fromA = try onA.readPatchFrame()
        let fromB = try onB.readPatchFrame()
        #expect(fromA.payload == fromB.payload)
        #expect(try nodeA.waitForGame(game.id, seq: total + 1)["state"] == (try nodeB.snapshot(game.id))["state"])
    }

    @Test("games created on different nodes get different ids, and every node lists them all")
    func gameIDsAcrossNodes() throws {
        let redis = try RedisServer()
        let nodes = [try ClusterNode.start("A", on: redis), try ClusterNode.start("B", on: redis)]
        var ids: [String] = []
        for index in 0..<6 { ids.append(try nodes[index % 2].createGame().id) }
        #expect(Set(ids).count == ids.count, "\(ids)")
        #expect(ids.allSatisfy { $0.hasPrefix("game-") && $0.count <= 12 })
        for node in nodes {
            for id in ids { _ = try node.waitForGame(id) }
            let listed = try node.request("GET", "/api/games").json["games"]?.arrayValue?.compactMap {
                $0["id"]?.stringValue
            }
            #expect(Set(listed ?? []) == Set(ids))
        }
    }

    @Test(
        "a node stops: its spectator resumes on another node with since=N, no gap, no duplicate; a node started later serves the same"
    )
    func resumeOnAnotherNode() throws {
        let redis = try RedisServer()
        var nodeA: TestApp? = try ClusterNode.start("A", on: redis)
        let nodeB = try ClusterNode.start("B", on: redis)
        let game = try nodeB.createGame()
        _ = try nodeA?.waitForGame(game.id)
        let scorer = try nodeB.scorer(game)
        let onA = try WebSocketClient(port: try #require(nodeA).port, path: "/ws/games/\(game.id)")
        var mirror = DocumentMirror()
        try mirror.take(try onA.readJSON())
        for index in 0..<3 {
            try scorer.send(json: command("c\(index)", move: "onePoint"))
            _ = try scorer.nextAnswer()
        }
        while mirror.seq < 3 { try mirror.take(try onA.readJSON()) }
        nodeA = nil  // A shuts down (its sockets close)
        for index in 3..<6 {
            try scorer.send(json: command("c\(index)", move: "onePoint"))
            _ = try scorer.nextAnswer()
        }
        // The spectator reconnects through the balancer to B and resumes: just the missed patches.
        let onB = try WebSocketClient(port: nodeB.port, path: "/ws/games/\(game.id)?since=\(mirror.seq)")
        while mirror.seq < 6 { try mirror.take(try onB.readJSON()) }
        #expect(mirror.snapshots == 1, "resumed with patches, not a snapshot")
        #expect(mirror.state == (try nodeB.snapshot(game.id))["state"])

        // A node that starts now loads the game from Redis at the same number and document, and resumes exactly.
        let nodeC = try ClusterNode.start("C", on: redis)
        #expect(try nodeC.snapshot(game.id) == (try nodeB.snapshot(game.id)))
        let onC = try WebSocketClient(port: nodeC.port, path: "/ws/games/\(game.id)?since=6")
        try scorer.send(json: command("c6", move: "onePoint"))
        _ = try scorer.nextAnswer()
        let next = try onC.readJSON()
        #expect(next["type"] == "patch" && next["seq"] == 7, "\(next)")
        try mirror.take(try onB.readJSON())
        try mirror.take(next)
        #expect(mirror.state == (try nodeC.snapshot(game.id))["state"])
    }

    @Test("viewer counts are summed across nodes: each node reports every node's spectators of a game")
    func viewersSummed() throws {
        let redis = try RedisServer()
        let nodes = try ["A", "B"].map { name in
            try ClusterNode.start(name, on: redis, configure: { $0.sharedViewerCountInterval = .milliseconds(200) })
        }
        let game = try nodes[0].createGame()
        _ = try nodes[1].waitForGame(game.id)
        func total(on node: TestApp) throws -> Int? {
            let line = try node.request("GET", "/metrics").text.split(separator: "\n").first {
                $0.hasPrefix("courtside_cluster_game_spectators{game=\"\(game.id)\"} ")
            }
            return line.flatMap { Int($0.split(separator: " ").last ?? "") }
        }
        var spectators = try (0..<2).map { _ in try WebSocketClient(port: nodes[0].port, path: "/ws/games/\(game.id)") }
        let onB = try (0..<3).map { _ in try WebSocketClient(port: nodes[1].port, path: "/ws/games/\(game.id)") }
        for node in nodes { #expect(try eventually(within: .seconds(10)) { try total(on: node) == 5 }) }
        for client in onB { client.close() }
        spectators.removeLast()
        for node in nodes { #expect(try eventually(within: .seconds(10)) { try total(on: node) == 1 }) }
    }
}
