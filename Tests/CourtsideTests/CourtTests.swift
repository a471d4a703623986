import Courtside
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@Suite("Courts: routes, the court document and its feed (issue 13)", .ownThread)
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
        #expect(
            try created.json == [
                "id": "court-1", "name": "Court 2",
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
