import Courtside
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@Suite("Courts: routes, the court document and its feed", .ownThread)
struct CourtTests {
    static let auth = ["Authorization": "Bearer \(TestApp.adminToken)"]

    @Test("POST /api/courts needs the admin token and a name; 201 gives the id, name and links; GET lists it")
    func createCourt() throws {
        let app = try TestApp()
        #expect(try app.request("POST", "/api/courts", json: ["name": "Court 2"]).status == 401)
        let empty = try app.request("POST", "/api/courts", headers: Self.auth, json: ["name": "  "])
        #expect(empty.status == 400)
        #expect(try empty.json["fields"]?["name"] == "Enter the court's name")
        let created = try app.request("POST", "/api/courts", headers: Self.auth, json: ["name": "Court 2"])
        #expect(created.status == 201)
        var json = try created.json.objectValue ?? [:]
        let key = try #require(json["displayKey"]?.stringValue)
        #expect(key.count == 32)
        json["displayKey"] = nil
        #expect(
            JSONValue.object(json) == [
                "id": "court-1", "name": "Court 2", "joining": "code",
                "links": [
                    "display": "/display.html?court=court-1", "spectator": "/game.html?court=court-1",
                    "join": "/join.html?court=court-1",
                ],
            ])
        let list = try app.request("GET", "/api/courts").json
        #expect(list["courts"]?.arrayValue?.map { $0["name"] } == ["Court 2"])
        #expect(try app.request("GET", "/api/courts/court-9").status == 404)
    }

    @Test("a game created with \"court\" goes on the court; PUT moves another game on; the court socket sees both")
    func followGames() throws {
        let app = try TestApp()
        _ = try app.request("POST", "/api/courts", headers: Self.auth, json: ["name": "Centre"])
        let socket = try WebSocketClient(port: app.port, path: "/ws/courts/court-1")
        let snapshot = try socket.readJSON()
        #expect(snapshot["type"] == "courtSnapshot")
        #expect(snapshot["court"] == "court-1")
        #expect(snapshot["state"]?["game"] == .null)
        var body = TestApp.sampleGame.objectValue ?? [:]
        body["court"] = "court-1"
        let first = try app.createGame(.object(body))
        let patch = try socket.readJSON()
        #expect(patch["type"] == "courtPatch")
        #expect(patch["seq"] == 1)
        #expect(patch["at"]?.intValue != nil)
        #expect(patch["ops"] == [["op": "replace", "path": "/game", "value": .string(first.id)]])
        let second = try app.createGame()
        let put = try app.request("PUT", "/api/courts/court-1", headers: Self.auth, json: ["game": .string(second.id)])
        #expect(put.status == 200)
        #expect(try socket.readJSON()["ops"] == [["op": "replace", "path": "/game", "value": .string(second.id)]])
        #expect(
            try app.request("PUT", "/api/courts/court-1", headers: Self.auth, json: ["game": "game-99"]).status == 400)
        body["court"] = "court-7"
        #expect(
            try app.request("POST", "/api/games", headers: Self.auth, json: .object(body)).json["code"]
                == "unknown_court")
    }

    @Test("courts survive a restart: the same ids, names and games")
    func durable() throws {
        let directory = TestApp.makeTemporaryDirectory()
        var game = ""
        do {
            let app = try TestApp(dataDirectory: directory)
            _ = try app.request("POST", "/api/courts", headers: Self.auth, json: ["name": "One"])
            game = try app.createGame().id
            _ = try app.request("PUT", "/api/courts/court-1", headers: Self.auth, json: ["game": .string(game)])
        }
        let app = try TestApp(dataDirectory: directory)
        let court = try app.request("GET", "/api/courts/court-1").json
        #expect(court["name"] == "One")
        #expect(court["game"] == .string(game))
        let created = try app.request("POST", "/api/courts", headers: Self.auth, json: ["name": "Two"]).json
        #expect(created["id"] == "court-2")
    }
}

@Suite("Viewer counts over real sockets", .ownThread)
struct ViewerCountTests {
    @Test("N spectators (sockets and an event stream) are counted in the lobby row and sent to the game's sockets")
    func counted() async throws {
        let app = try TestApp(configure: { $0.viewerCountInterval = .milliseconds(100) })
        let game = try app.createGame()
        var spectators: [WebSocketClient] = []
        for _ in 0..<3 {
            let spectator = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)")
            #expect(try spectator.readJSON()["type"] == "snapshot")
            spectators.append(spectator)
        }
        // The third socket reads the counts as they are announced until it sees all three.
        var seen: JSONValue?
        for _ in 0..<50 where seen?["viewers"] != 3 {
            seen = try spectators[2].readJSON()
        }
        #expect(seen == ["v": 1, "type": "viewers", "game": .string(game.id), "viewers": 3])
        var row: JSONValue?
        let counted = try eventually {
            row = try app.request("GET", "/api/games").json["games"]?.arrayValue?.first
            return row?["viewers"] == 3
        }
        #expect(counted, "\(row.map { "\($0)" } ?? "no row")")
        spectators[0].close()
        var after: JSONValue?
        for _ in 0..<50 where after?["viewers"] != 2 {
            after = try spectators[1].readJSON()
        }
        #expect(after?["viewers"] == 2)
    }
}

@Suite("The pickup queue: joins and the next game", .ownThread)
struct PickupQueueTests {
    @Test("teams join the queue (validated, rate-limited); next game keeps the winners on against the first team")
    func queueAndNext() throws {
        let app = try TestApp()
        let park = try app.createCourt("Park")
        let code = try app.joinCode(park)
        let bad = try app.join("court-1", name: "Owls", players: ["a", ""], code: code)
        #expect(bad.status == 400)
        #expect(try bad.json["code"] == "invalid_team")
        let joined = try app.join("court-1", name: "Owls", code: code)
        #expect(joined.status == 200)
        #expect(try joined.json["next"]?["name"] == "Owls")
        // The burst of 3 is spent (one refused, one accepted, one more): the next is refused.
        _ = try app.join("court-1", name: "Elks", players: ["D", "E", "F"], code: code)
        #expect(try app.join("court-1", name: "X", players: ["G", "H", "I"], code: code).status == 429)
        var body = ArchiveTests.shortGame.objectValue ?? [:]
        body["court"] = "court-1"
        let game = try app.createGame(.object(body))
        let early = try app.request(
            "POST", "/api/courts/court-1/next", headers: ["Authorization": "Bearer \(game.token)"], json: [:])
        #expect(try early.json["code"] == "game_not_finished")
        _ = try app.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c1", player: "away-0"))
        let next = try app.request(
            "POST", "/api/courts/court-1/next", headers: ["Authorization": "Bearer \(game.token)"], json: [:])
        #expect(next.status == 201)
        let nextID = try #require(try next.json["id"]?.stringValue)
        let court = try app.request("GET", "/api/courts/court-1").json
        #expect(court["game"] == .string(nextID))
        #expect(court["streak"]?["team"]?["name"] == "B")
        #expect(court["streak"]?["wins"] == 1)
        #expect(court["next"]?["name"] == "Elks")
        let state = try app.snapshot(nextID)["state"]
        #expect(state?["homeTeam"] == "B")
        #expect(state?["awayTeam"] == "Owls")
    }
}
