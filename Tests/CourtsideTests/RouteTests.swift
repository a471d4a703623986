import Courtside
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@Suite("HTTP routes", .ownThread)
struct RouteTests {
    @Test("GET /healthz answers ok")
    func health() throws {
        let app = try TestApp()
        let response = try app.routed("GET", "/healthz")
        #expect(response.status == 200)
        #expect(try response.json == ["status": "ok"])
    }

    @Test("GET / serves the public directory's index page")
    func staticPages() throws {
        let directory = TestApp.makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/public", withIntermediateDirectories: true)
        try Data("<h1>Courtside</h1>".utf8).write(to: URL(fileURLWithPath: directory + "/public/index.html"))
        let app = try TestApp(dataDirectory: directory)
        let page = try app.request("GET", "/")
        #expect(page.status == 200)
        #expect(page.text == "<h1>Courtside</h1>")
        #expect(try app.request("GET", "/missing.html").status == 404)
    }

    @Test("POST /api/games needs the admin bearer token")
    func createNeedsAdminToken() throws {
        let app = try TestApp()
        let missing = try app.routed("POST", "/api/games", json: TestApp.sampleGame)
        #expect(missing.status == 401)
        #expect(try missing.json["code"] == "unauthorized")
        #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        let wrong = try app.routed(
            "POST", "/api/games", headers: ["Authorization": "Bearer nope"], json: TestApp.sampleGame)
        #expect(wrong.status == 403)
        #expect(try wrong.json["code"] == "forbidden")
        #expect(try app.routed("GET", "/api/games").json == ["games": []])
    }

    @Test("POST /api/games creates a game: 201 with id, scorer token and links; the list and snapshot show it")
    func createGame() throws {
        let app = try TestApp()
        let response = try app.routed(
            "POST", "/api/games", headers: ["Authorization": "Bearer \(TestApp.adminToken)"], json: TestApp.sampleGame)
        #expect(response.status == 201)
        let body = try response.json
        let id = try #require(body["id"]?.stringValue)
        #expect(body["scorerToken"]?.stringValue?.count == 32)
        #expect(
            body["links"] == [
                "spectator": .string("/game.html?id=\(id)"), "scorer": .string("/score.html?id=\(id)"),
                "display": .string("/display.html?id=\(id)"),
            ])
        let snapshot = try app.snapshot(id)
        #expect(snapshot["type"] == "snapshot")
        #expect(snapshot["seq"] == 0)
        #expect(snapshot["state"]?["homeTeam"] == "Lakers")
        let list = try app.routed("GET", "/api/games").json
        #expect(list["games"]?.arrayValue?.map { $0["id"] } == [.string(id)])
    }

    @Test("POST /api/games accepts the nested team shape too")
    func createNested() throws {
        let app = try TestApp()
        let game = try app.createGame([
            "homeTeam": ["name": "Bulls", "players": ["A", "B", "C"]],
            "awayTeam": ["name": "Knicks", "players": ["D", "E", "F"]], "rules": ["preset": "fiba3x3"],
        ])
        #expect(try app.snapshot(game.id)["state"]?["awayTeam"] == "Knicks")
    }

    @Test("POST /api/games takes each team's starters in the nested shape: they begin on court")
    func createNestedStarters() throws {
        let app = try TestApp()
        let players: [JSONValue] = ["A", "B", "C", "D", "E", "F", "G"]
        let game = try app.createGame([
            "homeTeam": ["name": "Bulls", "players": .array(players), "starters": [2, 3, 4, 5, 6]],
            "awayTeam": ["name": "Knicks", "players": .array(players)], "rules": ["preset": "fiba5x5"],
        ])
        let state = try app.snapshot(game.id)["state"]
        let onCourt = { (side: String) in
            (state?["\(side)Players"]?.arrayValue ?? []).filter { $0["onCourt"] == true }.compactMap(
                \.["id"]?.stringValue)
        }
        #expect(onCourt("home") == ["home-2", "home-3", "home-4", "home-5", "home-6"])
        #expect(onCourt("away") == ["away-0", "away-1", "away-2", "away-3", "away-4"])
    }

    @Test("invalid games are answered 400 with the creator view model's error per field")
    func createInvalid() throws {
        let app = try TestApp()
        let auth = ["Authorization": "Bearer \(TestApp.adminToken)"]
        let response = try app.routed(
            "POST", "/api/games", headers: auth,
            json: [
                "homeTeam": "Lakers", "homePlayers": ["Ann", "", "Cy"], "awayTeam": "",
                "awayPlayers": ["Di", "Ed", "Flo"], "rules": ["preset": "custom", "targetScore": 0, "winBy": 2],
            ])
        #expect(response.status == 400)
        let body = try response.json
        #expect(body["code"] == "invalid_game")
        #expect(
            body["fields"] == [
                "awayTeam": "Enter the team's name", "homePlayers[1]": "Enter the player's name",
                "targetScore": "Enter a target from 1 to 999",
            ])
        #expect(
            body["fieldCodes"] == [
                "awayTeam": ["code": "team_name_empty"], "homePlayers[1]": ["code": "player_name_empty"],
                "targetScore": ["code": "target_score_range", "max": 999],
            ])
        let notJSON = try app.routed("POST", "/api/games", headers: auth, body: Array("{nope".utf8))
        #expect(notJSON.status == 400)
        #expect(try notJSON.json["code"] == "bad_json")
        let notObject = try app.routed("POST", "/api/games", headers: auth, body: Array("[1]".utf8))
        #expect(notObject.status == 400)
        #expect(try notObject.json["code"] == "bad_request")
        #expect(try app.routed("GET", "/api/games").json == ["games": []])
    }

    @Test("a 400 to a create request gives each field's problem a code with the values its sentence names")
    func createInvalidCodes() throws {
        let app = try TestApp()
        let auth = ["Authorization": "Bearer \(TestApp.adminToken)"]
        let response = try app.routed(
            "POST", "/api/games", headers: auth,
            json: [
                "homeTeam": "Lakers", "homePlayers": ["Ann", "Bo", "Cy"],
                "awayTeam": .string(String(repeating: "x", count: 41)),
                "awayPlayers": ["Di", ["name": "Ed", "number": "123"], "Flo"], "awayShort": "C",
                "rules": ["preset": "fiba5x5", "confirmWindowMs": "soon"],
            ])
        #expect(response.status == 400)
        let body = try response.json
        let codes = body["fieldCodes"]
        #expect(codes?["awayTeam"] == JSONValue.object(["code": "too_long", "limit": 40]))
        #expect(codes?["awayPlayers[1]"] == JSONValue.object(["code": "player_number"]))
        #expect(codes?["awayShort"] == JSONValue.object(["code": "team_short", "min": 2, "max": 4]))
        #expect(codes?["confirmWindowMs"] == JSONValue.object(["code": "whole_number"]))
        // Each code stands beside the sentence it was made with, for every field named.
        #expect(codes?.objectValue?.keys.sorted() == body["fields"]?.objectValue?.keys.sorted())
        #expect(body["fields"]?["awayShort"] == "Use 2 to 4 letters A-Z")

        // With every name valid, the roster's size for 5x5 is checked: the allowed range travels as numbers.
        let players = ["Ann", "Bo", "Cy"]
        let short = try app.routed(
            "POST", "/api/games", headers: auth,
            json: [
                "homeTeam": "Lakers", "homePlayers": .array(players.map { .string($0) }), "awayTeam": "Celtics",
                "awayPlayers": ["Di", "Ed", "Flo", "Gus", "Hal"], "rules": ["preset": "fiba5x5"],
            ])
        #expect(short.status == 400)
        let shortBody = try short.json
        #expect(shortBody["fieldCodes"] == ["homePlayers": ["code": "player_count", "min": 5, "max": 12]])
        #expect(shortBody["fields"] == ["homePlayers": "A team has 5 to 12 players"])
    }

    @Test("unknown games and routes are 404 with a JSON error; wrong methods 405 with Allow")
    func notFound() throws {
        let app = try TestApp()
        let game = try app.routed("GET", "/api/games/game-99")
        #expect(game.status == 404)
        #expect(try game.json["code"] == "unknown_game")
        #expect(try app.routed("GET", "/api/games/game-99/events").status == 404)
        #expect(try app.routed("POST", "/api/games/game-99/commands", json: command("c1")).status == 404)
        #expect(try app.routed("GET", "/api/nothing").status == 404)
        let socket = try app.connect()
        #expect(try WebSocketClient.upgrade(socket, path: "/ws/games/game-99").status == 404)
        let method = try app.routed("DELETE", "/api/games")
        #expect(method.status == 405)
        #expect(method.header("Allow") == "GET, POST")
    }

    @Test("routes match the path's non-empty segments: repeated and trailing slashes change nothing, extra ones 404")
    func segments() throws {
        let app = try TestApp()
        #expect(try app.routed("GET", "//api//games/").json == ["games": []])
        #expect(try app.routed("GET", "/healthz/").status == 200)
        #expect(try app.request("GET", "/healthz/more").status == 404)  // a static-file path: over a socket
        #expect(try app.routed("GET", "/api/games/game-99//events").status == 404)
        #expect(try app.routed("GET", "/api//nothing").status == 404)
        let socket = try app.connect()
        #expect(try WebSocketClient.upgrade(socket, path: "//ws/games//game-99/").status == 404)
    }

    @Test("GET /metrics exposes the counters in the Prometheus text format")
    func metrics() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let scorer = try app.scorer(game)
        _ = try scorer.readJSON()  // snapshot
        try scorer.send(json: command("c1"))
        var answers: [JSONValue] = []
        while answers.count < 2 { answers.append(try scorer.readJSON()) }
        try scorer.send(json: command("c2", player: "home-9"))
        while try scorer.readJSON()["type"] != "error" {}
        let spectator = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)")
        _ = try spectator.readJSON()
        let text = try app.request("GET", "/metrics").text
        for line in [
            "courtside_open_connections{kind=\"scorer\"} 1", "courtside_open_connections{kind=\"spectator\"} 1",
            "courtside_commands_accepted_total 1", "courtside_commands_rejected_total{code=\"unknown_player\"} 1",
            "courtside_command_ack_seconds_count 1", "courtside_game_spectators{game=\"\(game.id)\"} 1",
            "courtside_slow_consumers_total{action=\"resynced\"} 0",
        ] {
            #expect(text.contains(line), "missing \(line) in\n\(text)")
        }
        #expect(text.contains("# TYPE courtside_command_ack_seconds histogram"))
        #expect(text.contains("courtside_messages_sent_total "))
        #expect(text.contains("courtside_bytes_sent_total "))
    }
}

@Suite("Deferred answers", .ownThread)
struct DeferredAnswerTests {
    @Test("pipelined requests whose answers wait for the disk are answered in order on one connection")
    func pipelined() throws {
        let journal = DelayedJournal()
        let app = try TestApp(journal: journal)
        let game = try app.createGame()
        let socket = try app.connect()
        journal.hold()
        var requests: [UInt8] = []
        for index in 0..<3 {
            let body = command("c\(index)", move: "onePoint").canonicalBytes
            requests +=
                Array(
                    ("POST /api/games/\(game.id)/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(game.token)\r\n"
                        + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
        }
        requests += Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        try socket.send(requests)
        #expect(!socket.isReadable(withinMilliseconds: 300))
        journal.release()
        let answers = try (0..<3).map { _ in try socket.readResponse().json }
        #expect(answers.map { $0["id"] } == ["c0", "c1", "c2"])
        #expect(answers.map { $0["seq"] } == [1, 2, 3])
        #expect(try socket.readResponse().status == 200)
    }
}
