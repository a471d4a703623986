import Courtside
import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import Courtside

/// A venue node relaying to a public side of two nodes on one Redis (docs/relay.md, "Several public nodes"): the
/// venue's entries are stored once, with its `seq`s, in the shared journal; every node serves the relayed game; the
/// venue follows a failover to another node and resumes from what the journal holds.
@Suite(
    "Cluster: a venue relays to a public side of two nodes on Redis", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterRelayTests {
    @Test("relayed through A, cut, then through another node on A's address: every node serves the venue's document")
    func relayFollowsFailover() throws {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let nodeB = try ClusterNode.start("B", on: redis)
        // Created on B: A knows the venue only by reading the shared store when the venue's token reaches it.
        let created = try nodeB.request(
            "POST", "/api/venues", headers: ["Authorization": "Bearer \(TestApp.adminToken)"], json: ["name": "Hall 2"])
        #expect(created.status == 201, "\(created.text)")
        let venueID = try #require(try created.json["id"]?.stringValue)
        let token = try #require(try created.json["token"]?.stringValue)
        #expect(
            try nodeA.request("GET", "/api/venues", headers: ["Authorization": "Bearer \(TestApp.adminToken)"])
                .json["venues"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [venueID])
        let portA = nodeA.port
        let venue = try TestApp(configure: { configuration in
            configuration.upstream = "ws://127.0.0.1:\(portA)"
            configuration.upstreamToken = token
        })
        func uplink() throws -> String? { try venue.request("GET", "/healthz").json["uplink"]?.stringValue }
        #expect(try eventually { try uplink() == "up" })

        let game = try venue.createGame()
        var index = 0
        func score(_ count: Int) throws {
            for _ in 0..<count {
                let answer = try venue.scoreRelayTestCommand(index, in: game)
                #expect(answer.status == 200, "\(answer.text)")
                index += 1
            }
        }
        func caughtUp(_ node: TestApp, _ name: String) throws {
            let expected = try venue.snapshot(game.id)
            let (equal, served) = node.waitUntilServes(game.id, as: expected, within: .seconds(20))
            #expect(equal, "\(name): \(served.map(\.description) ?? "nothing")\nvenue \(expected)")
        }
        try score(6)
        try caughtUp(nodeA, "A")
        try caughtUp(nodeB, "B")

        // A goes away (a failover): the venue keeps scoring, then reconnects to the node now behind A's address.
        nodeA.app.shutdown()
        #expect(try eventually { try uplink() == "down" })
        try score(5)
        let nodeC = try ClusterNode.start("C", on: redis, configure: { $0.port = portA })
        #expect(try eventually(within: .seconds(20)) { try uplink() == "up" })
        try score(3)
        try caughtUp(nodeC, "C")
        try caughtUp(nodeB, "B")
        // Every node's lobby lists the relayed game with its venue's name.
        for node in [nodeB, nodeC] {
            let rows = try node.request("GET", "/api/games").json["games"]?.arrayValue ?? []
            #expect(rows.first { $0["id"]?.stringValue == game.id }?["venue"] == "Hall 2", "\(rows)")
        }

        // Stored once, with the venue's seqs and bytes, in the shared journal.
        let atVenue = try #require(try venue.app.core.services.journal.loadGames().first { $0.id.rawValue == game.id })
        let shared = try #require(
            try nodeB.app.core.services.journal.loadGames().first { $0.id.rawValue == game.id })
        #expect(shared.events == atVenue.events)
        #expect(shared.record.metadata[GameRecord.relayedFromKey] == venueID)
        #expect(atVenue.events.count >= index)
        // Read-only on every node.
        let refused = try nodeB.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("x"))
        #expect(try refused.json["code"] == "relayed_game")
    }

    @Test(
        "two connections of one venue on two nodes: the stale one's overlapping write is refused, each entry stored once"
    )
    func staleWriterRefused() throws {
        let (redis, nodeA, nodeB, venueID, token) = try Self.twoNodesWithVenue()
        defer { withExtendedLifetime(redis) {} }
        // A game played on A: its stored events are what a venue would relay.
        let (journaled, relayed, record, entries) = try RelayEndpointTests.playedGame(
            on: nodeA, commands: 6, venueID: venueID)
        #expect(entries.count >= 5)

        let onA = RelayEndpointTests.Venue(client: try WebSocketClient(port: nodeA.port, path: "/api/relay"))
        try onA.send(.hello(venue: venueID, token: token, boot: "b1", heads: [relayed: entries.count]))
        #expect(try onA.read() == .welcome(stored: [:]))
        try onA.send(.open(relayed, record: record))
        #expect(try onA.read() == .ack(relayed, seq: 0))
        try onA.send(.entries(relayed, Array(entries[0..<2])))
        #expect(try onA.read() == .ack(relayed, seq: 2))
        // A second connection of the same venue on B: its welcome is what the shared journal holds, not B's memory.
        let onB = RelayEndpointTests.Venue(client: try WebSocketClient(port: nodeB.port, path: "/api/relay"))
        try onB.send(.hello(venue: venueID, token: token, boot: "b2", heads: [relayed: entries.count]))
        #expect(try onB.read() == .welcome(stored: [relayed: 2]))
        // A goes on writing; B's connection, now stale, writes over it: the journal's sequence check refuses it
        // and B cuts that connection (the venue would resend after a fresh welcome).
        try onA.send(.entries(relayed, Array(entries[2..<4])))
        #expect(try onA.read() == .ack(relayed, seq: 4))
        try onB.send(.entries(relayed, Array(entries[2...])))
        #expect(throws: ClientError.self) { _ = try onB.read() }
        let stored = try #require(
            try nodeB.app.core.services.journal.loadGames().first { $0.id == relayed })
        #expect(stored.events.map(\.event.sequence) == Array(1...4))
        // Reconnected to B: welcomed from the journal, it finishes the game once.
        let again = RelayEndpointTests.Venue(client: try WebSocketClient(port: nodeB.port, path: "/api/relay"))
        try again.send(.hello(venue: venueID, token: token, boot: "b2", heads: [relayed: entries.count]))
        #expect(try again.read() == .welcome(stored: [relayed: 4]))
        try again.send(.entries(relayed, Array(entries[4...])))
        #expect(try again.read() == .ack(relayed, seq: entries.count))
        let final = try #require(try nodeB.app.core.services.journal.loadGames().first { $0.id == relayed })
        #expect(final.events.map(\.event.sequence) == Array(1...entries.count))
        #expect(final.events.map(\.presentationSequence) == journaled.events.map(\.presentationSequence))
        _ = try nodeA.waitForGame(relayed.rawValue, seq: journaled.lastPresentationSequence)
        _ = try nodeB.waitForGame(relayed.rawValue, seq: journaled.lastPresentationSequence)
    }
}

extension ClusterRelayTests {
    /// A fresh Redis, nodes A and B on it, and a venue "Hall 2" made on A: its id and token.
    static func twoNodesWithVenue() throws -> (RedisServer, TestApp, TestApp, String, String) {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let nodeB = try ClusterNode.start("B", on: redis)
        let made = try nodeA.request(
            "POST", "/api/venues", headers: ["Authorization": "Bearer \(TestApp.adminToken)"],
            json: ["name": "Hall 2"]
        ).json
        let venueID = try #require(made["id"]?.stringValue)
        let token = try #require(made["token"]?.stringValue)
        return (redis, nodeA, nodeB, venueID, token)
    }
}

/// A venue's courts on a public side of two nodes on Redis (docs/relay.md, "Courts"): the node holding the venue's
/// relay stores them in Redis, and every node shows them read-only and follows their changes.
@Suite(
    "Cluster: a venue's courts on every node of a Redis cluster", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterCourtRelayTests {
    @Test(
        "a court relayed to A shows on B and on a node started later, refused there, B following its change; no foreign ids"
    )
    func courtOnEveryNode() throws {
        let (redis, nodeA, nodeB, _, token) = try ClusterRelayTests.twoNodesWithVenue()
        let admin = ["Authorization": "Bearer \(TestApp.adminToken)"]
        let portA = nodeA.port
        let venue = try TestApp(configure: { configuration in
            configuration.upstream = "ws://127.0.0.1:\(portA)"
            configuration.upstreamToken = token
        })
        #expect(try eventually { try venue.request("GET", "/healthz").json["uplink"]?.stringValue == "up" })

        let first = try venue.createGame()
        let court = try #require(
            try venue.request("POST", "/api/courts", headers: admin, json: ["name": "Court 1"]).json["id"]?
                .stringValue)
        let put = try venue.request("PUT", "/api/courts/\(court)", headers: admin, json: ["game": .string(first.id)])
        #expect(put.status == 200, "\(put.text)")
        func shown(on node: TestApp) -> JSONValue? {
            guard let answer = try? node.request("GET", "/api/courts/\(court)"), answer.status == 200 else {
                return nil
            }
            return try? answer.json
        }
        func atVenue() throws -> JSONValue { try venue.request("GET", "/api/courts/\(court)").json }
        for node in [nodeA, nodeB] {
            #expect(
                eventually { shown(on: node)?["game"]?.stringValue == first.id },
                "\(String(describing: shown(on: node)))")
            #expect(try shown(on: node) == atVenue())
            let listed = try node.request("GET", "/api/courts").json["courts"]?.arrayValue ?? []
            #expect(listed.contains { $0["id"]?.stringValue == court }, "\(listed)")
        }

        // Read-only on B too, naming the venue, as on the node holding the relay.
        let refused = try nodeB.request("PUT", "/api/courts/\(court)", headers: admin, json: ["game": .null])
        #expect(refused.status == 409)
        #expect(try refused.json["code"] == "relayed_court", "\(refused.text)")
        #expect(refused.text.contains("Hall 2"), "\(refused.text)")

        // A change at the venue reaches B through Redis; B's court page (its WebSocket) follows without a reload.
        let page = try WebSocketClient(port: nodeB.port, path: "/ws/courts/\(court)")
        let snapshot = try page.readJSON()
        #expect(snapshot["type"] == "courtSnapshot")
        #expect(snapshot["state"]?["game"] == .string(first.id))
        // Foreign data first: a relayed court under an id that is no venue's, in the feed and in the store.
        let record = try #require(
            try redisReply(redis, RESPCommand("HGET", .string("courtside:relayed-court:{\(court)}"), "record")).bytes)
        let foreign = Array(
            String(decoding: record, as: UTF8.self).replacingOccurrences(of: court, with: "court-9").utf8)
        _ = try redisReply(
            redis,
            RESPCommand(
                "XADD", "courtside:feed", "*", "c", "court-9", "v", 1, "r", .bytes(foreign), "y", "Hall 2", "n", "X"))
        _ = try redisReply(
            redis,
            RESPCommand(
                "HSET", "courtside:relayed-court:{court-9}", "version", 1, "record", .bytes(foreign), "venue", "X"))
        _ = try redisReply(redis, RESPCommand("RPUSH", "courtside:relayed-courts", "court-9"))
        let second = try venue.createGame()
        let next = try venue.request("PUT", "/api/courts/\(court)", headers: admin, json: ["game": .string(second.id)])
        #expect(next.status == 200, "\(next.text)")
        let patch = try page.readJSON()
        #expect(patch["type"] == "courtPatch")
        #expect(patch["ops"] == [["op": "replace", "path": "/game", "value": .string(second.id)]], "\(patch)")
        #expect(eventually { shown(on: nodeB)?["game"]?.stringValue == second.id })
        #expect(try shown(on: nodeB) == atVenue())
        // The foreign court was read from the feed before the change: passed over, not shown.
        #expect(try nodeB.request("GET", "/api/courts/court-9").status == 404)

        // A node started now loads the venue's court from Redis (read-only there too) and leaves the foreign one out,
        // saying why.
        let nodeC = try ClusterNode.start("C", on: redis)
        #expect(try shown(on: nodeC) == atVenue())
        #expect(try nodeC.request("GET", "/api/courts/court-9").status == 404)
        #expect(nodeC.logLines.all.contains { $0.contains("relayed court not loaded") && $0.contains("court-9") })
        let refusedOnC = try nodeC.request("PUT", "/api/courts/\(court)", headers: admin, json: ["game": .null])
        #expect(try refusedOnC.json["code"] == "relayed_court", "\(refusedOnC.text)")
    }
}
