import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import Courtside

@Suite(
    "Cluster: courts and the pickup queue are shared by every node", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterCourtsTests {
    func court(_ node: TestApp, _ id: String) throws -> JSONValue? {
        let response = try node.request("GET", "/api/courts/\(id)")
        return response.status == 200 ? try response.json : nil
    }

    func queueNames(_ node: TestApp, _ id: String) throws -> [JSONValue]? {
        try court(node, id)?["queue"]?.arrayValue?.map { $0["name"] ?? .null }
    }

    /// Nodes A and B on one Redis, with a court A made that B shows.
    func twoNodesWithCourt(_ name: String) throws -> (
        RedisServer, TestApp, TestApp, (id: String, displayKey: String)
    ) {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let nodeB = try ClusterNode.start("B", on: redis)
        let made = try nodeA.createCourt(name)
        try #require(try eventually(within: .seconds(1)) { try court(nodeB, made.id) != nil })
        return (redis, nodeA, nodeB, made)
    }

    @Test("courts made on either node get distinct ids; teams joining on both nodes are all queued; next on the other")
    func courtsAndQueue() throws {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let nodeB = try ClusterNode.start("B", on: redis)
        let park = try nodeA.createCourt("Park")
        #expect(park.id == "court-1")
        #expect(try eventually(within: .seconds(1)) { try court(nodeB, "court-1")?["name"] == "Park" })
        // B already shows court-1: its own court is the next number, and both lists hold both, in creation order.
        let hall = try nodeB.createCourt("Hall")
        #expect(hall.id == "court-2")
        let names: JSONValue = ["Park", "Hall"]
        for node in [nodeA, nodeB] {
            #expect(
                try eventually(within: .seconds(1)) {
                    let listed = try node.request("GET", "/api/courts").json["courts"]?.arrayValue
                    return listed.map { .array($0.map { $0["name"] ?? .null }) } == names
                })
        }
        // One join on each node, back to back: the second may start from a court without the first (a conflict in
        // the store), and must still keep both.
        let code = try nodeA.joinCode(park)
        #expect(try nodeB.joinCode(park) == code, "the code is derived from the stored court: the same on every node")
        #expect(try nodeA.join("court-1", name: "Owls", code: code).status == 200)
        #expect(try nodeB.join("court-1", name: "Elks", players: ["D", "E", "F"], code: code).status == 200)
        for node in [nodeA, nodeB] {
            #expect(try eventually(within: .seconds(1)) { try queueNames(node, "court-1") == ["Owls", "Elks"] })
        }
        // The game on the court is made on A, finished on A; its scorer asks B for the next game.
        var body = ArchiveTests.shortGame.objectValue ?? [:]
        body["court"] = "court-1"
        let game = try nodeA.createGame(.object(body))
        _ = try nodeB.waitForGame(game.id)
        #expect(try eventually(within: .seconds(1)) { try court(nodeB, "court-1")?["game"] == .string(game.id) })
        let finished = try nodeA.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c1", player: "away-0"))
        #expect(try finished.json["type"] == "ack")
        _ = try nodeB.waitForGame(game.id, seq: try nodeA.snapshot(game.id)["seq"]?.intValue)
        let next = try nodeB.request(
            "POST", "/api/courts/court-1/next", headers: ["Authorization": "Bearer \(game.token)"], json: [:])
        #expect(next.status == 201, "\(next.text)")
        let nextID = try #require(try next.json["id"]?.stringValue)
        for node in [nodeA, nodeB] {
            #expect(
                try eventually(within: .seconds(1)) {
                    let shown = try court(node, "court-1")
                    return shown?["game"] == .string(nextID) && shown?["next"]?["name"] == "Elks"
                        && shown?["streak"]?["wins"] == 1
                })
        }
    }

    @Test("a court display on B follows the court's game put on by A, within a second")
    func displayFollowsOtherNode() throws {
        let (redis, nodeA, nodeB, centre) = try twoNodesWithCourt("Centre")
        defer { withExtendedLifetime(redis) {} }
        let display = try WebSocketClient(port: nodeB.port, path: "/ws/courts/\(centre.id)")
        let snapshot = try display.readJSON()
        #expect(snapshot["type"] == "courtSnapshot")
        #expect(snapshot["state"]?["game"] == .null)
        var body = TestApp.sampleGame.objectValue ?? [:]
        body["court"] = .string(centre.id)
        let first = try nodeA.createGame(.object(body))
        let put = ContinuousClock.now
        let patch = try display.readJSON()
        #expect(ContinuousClock.now - put < .seconds(1), "seen on B within a second")
        #expect(patch["type"] == "courtPatch")
        #expect(patch["ops"] == [["op": "replace", "path": "/game", "value": .string(first.id)]])
        // And a game moved onto the court by the admin on A, too.
        let second = try nodeA.createGame()
        let moved = try nodeA.request(
            "PUT", "/api/courts/\(centre.id)", headers: TestApp.adminAuth, json: ["game": .string(second.id)])
        #expect(moved.status == 200)
        #expect(try display.readJSON()["ops"] == [["op": "replace", "path": "/game", "value": .string(second.id)]])
        #expect(try court(nodeB, centre.id)?["game"] == .string(second.id))
    }

    @Test("a change made on a node that has not seen another node's change starts again from it: both are kept")
    func conflictKeepsBoth() throws {
        let (redis, nodeA, nodeB, park) = try twoNodesWithCourt("Park")
        defer { withExtendedLifetime(redis) {} }
        // B stops reading the feed: it cannot learn A's join but from the store's refusal of its own.
        try #require(nodeB.app.tailer != nil)
        nodeB.app.tailer?.stop()
        let code = try nodeA.joinCode(park)
        #expect(try nodeA.join(park.id, name: "Owls", code: code).status == 200)
        #expect(try queueNames(nodeB, park.id) == [], "B has not seen A's join")
        let joined = try nodeB.join(park.id, name: "Elks", players: ["D", "E", "F"], code: code)
        #expect(joined.status == 200)
        #expect(try joined.json["queue"]?.arrayValue?.map { $0["name"] } == ["Owls", "Elks"])
        #expect(try queueNames(nodeB, park.id) == ["Owls", "Elks"])
        // A court B never saw takes the next number, not A's.
        let hall = try nodeA.createCourt("Hall")
        let gym = try nodeB.createCourt("Gym")
        #expect(hall.id == "court-2")
        #expect(gym.id == "court-3")
    }
}
