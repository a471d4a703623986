import Courtside
import CourtsideTestSupport
import CourtsideViewModels
import Testing

@Suite("Scorer socket", .ownThread)
struct ScorerSocketTests {
    @Test("an authenticated scorer gets the snapshot, then each command's patch and its ack")
    func commandsAreAcked() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let scorer = try app.scorer(game)
        var mirror = DocumentMirror()
        try mirror.take(try scorer.readJSON())
        #expect(mirror.seq == 0)
        try scorer.send(json: command("c1"))
        var ack: JSONValue?
        while ack == nil {
            let message = try scorer.readJSON()
            if message["type"] == "ack" { ack = message } else { try mirror.take(message) }
        }
        #expect(ack == ["v": 1, "type": "ack", "id": "c1", "seq": 1])
        #expect(mirror.seq == 1)
        #expect(mirror.state == (try app.snapshot(game.id))["state"])
        #expect(mirror.state["homeScore"] == 2)
    }

    @Test("Authorization: Bearer on the upgrade authenticates without an auth message")
    func bearerHeader() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let scorer = try WebSocketClient(
            port: app.port, path: "/ws/games/\(game.id)/scorer", headers: ["Authorization": "Bearer \(game.token)"])
        #expect(try scorer.readJSON()["type"] == "authenticated")
        #expect(try scorer.readJSON()["type"] == "snapshot")
    }

    @Test("a wrong token, or a first message that is not auth, closes with 1008")
    func badToken() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let wrong = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)/scorer")
        try wrong.send(json: ["type": "auth", "token": "0123456789abcdef0123456789abcdef"])
        #expect(try wrong.readCloseCode() == 1008)
        let early = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)/scorer")
        try early.send(json: command("c1"))
        #expect(try early.readCloseCode() == 1008)
        let header = try WebSocketClient(
            port: app.port, path: "/ws/games/\(game.id)/scorer", headers: ["Authorization": "Bearer wrong"])
        #expect(try header.readCloseCode() == 1008)
        #expect(try app.snapshot(game.id)["seq"] == 0)
    }

    @Test(
        "a scorer that does not authenticate within 5 s is closed with 1008, and not before (time driven by hand)",
        arguments: SocketTransport.allCases)
    func authenticationTimeout(over transport: SocketTransport) throws {
        let time = try SocketTimeByHand()
        let game = try time.app.createGame()
        let silent = try time.app.webSocket("/ws/games/\(game.id)/scorer", over: transport)
        try #require(eventually { time.scheduler.scheduledTimerCount == 1 }, "the socket never armed its deadline")
        #expect(time.scheduler.nextDeadline == time.scheduler.now + .seconds(5))
        try time.advance(by: .seconds(5) - .milliseconds(1))
        #expect(time.scheduler.scheduledTimerCount == 1, "the deadline fired early")
        try time.advance(by: .milliseconds(1))
        #expect(time.scheduler.scheduledTimerCount == 0)
        #expect(try silent.readCloseCode() == 1008)
    }

    @Test(
        "a scorer that authenticates before its deadline stays open past it, the deadline cancelled",
        arguments: SocketTransport.allCases)
    func authenticationInTime(over transport: SocketTransport) throws {
        let time = try SocketTimeByHand()
        let game = try time.app.createGame()
        let scorer = try time.app.webSocket("/ws/games/\(game.id)/scorer", over: transport)
        try #require(eventually { time.scheduler.scheduledTimerCount == 1 }, "the socket never armed its deadline")
        try time.advance(by: .seconds(4))
        try scorer.send(json: ["type": "auth", "token": .string(game.token)])
        #expect(try scorer.readJSON()["type"] == "authenticated")
        #expect(time.scheduler.scheduledTimerCount == 0, "authenticating cancels the deadline")
        try time.advance(by: .seconds(60))
        #expect(try scorer.readJSON()["type"] == "snapshot")
        try scorer.send(json: command("c1"))
        #expect(try scorer.nextAnswer()["type"] == "ack", "still open and serving after the deadline passed")
    }

    @Test("a retried command id gets the original ack and changes nothing")
    func idempotentRetry() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let scorer = try app.scorer(game)
        _ = try scorer.readJSON()
        try scorer.send(json: command("c1"))
        try scorer.send(json: command("c2", move: "onePoint"))
        try scorer.send(json: command("c1"))
        var acks: [JSONValue] = []
        while acks.count < 3 {
            let message = try scorer.readJSON()
            if message["type"] == "ack" { acks.append(message) }
        }
        #expect(acks.map { $0["seq"] } == [1, 2, 1])
        #expect(acks.map { $0["id"] } == ["c1", "c2", "c1"])
        #expect(try app.snapshot(game.id)["state"]?["homeScore"] == 3)
        // The same over POST, with the scorer token as bearer.
        let retried = try app.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c1"))
        #expect(retried.status == 200)
        #expect(try retried.json == ["v": 1, "type": "ack", "id": "c1", "seq": 1])
        #expect(try app.snapshot(game.id)["seq"] == 2)
    }

    @Test("refused commands are answered with the error and change nothing")
    func refusals() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let scorer = try app.scorer(game)
        _ = try scorer.readJSON()
        try scorer.send(json: command("c1", player: "home-7"))
        #expect(try scorer.readJSON()["code"] == "unknown_player")
        try scorer.send(text: "{nope")
        let bad = try scorer.readJSON()
        #expect(bad["code"] == "bad_json")
        #expect(bad["id"] == .null)
        #expect(try app.snapshot(game.id)["seq"] == 0)
    }

    @Test("commands past the burst are refused with rate_limited")
    func rateLimited() throws {
        let app = try TestApp(configure: {
            $0.commandBurst = 5
            $0.commandsPerSecond = 0.001
        })
        let game = try app.createGame()
        let scorer = try app.scorer(game)
        _ = try scorer.readJSON()
        let answers = try scorer.answers(toCommands: (0..<8).map { "c\($0)" })
        #expect((0..<5).allSatisfy { answers["c\($0)"]?["type"] == "ack" })
        #expect((5..<8).allSatisfy { answers["c\($0)"]?["code"] == "rate_limited" })
        #expect(try app.snapshot(game.id)["seq"] == 5)
        #expect(
            try app.request("GET", "/metrics").text.contains(
                "courtside_commands_rejected_total{code=\"rate_limited\"} 3"))
    }

    @Test("a scorer socket from an origin outside the allow-list is refused with 403 at the upgrade")
    func originRefused() throws {
        let app = try TestApp(configure: { $0.allowedOrigins = ["https://scores.example"] })
        let game = try app.createGame()
        let refused = try WebSocketClient.upgrade(
            app.connect(), path: "/ws/games/\(game.id)/scorer", headers: ["Origin": "https://evil.example"])
        #expect(refused.status == 403)
        #expect(try refused.json["code"] == "origin_not_allowed")
        let allowed = try WebSocketClient(
            port: app.port, path: "/ws/games/\(game.id)/scorer", headers: ["Origin": "https://scores.example"])
        try allowed.send(json: ["type": "auth", "token": .string(game.token)])
        #expect(try allowed.readJSON()["type"] == "authenticated")
        // Spectators are not scorers: any origin may watch.
        _ = try WebSocketClient(
            port: app.port, path: "/ws/games/\(game.id)", headers: ["Origin": "https://evil.example"])
    }

    @Test("POST /api/games/{id}/commands needs the game's scorer token")
    func postCommandAuth() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let other = try app.createGame()
        let path = "/api/games/\(game.id)/commands"
        let missing = try app.request("POST", path, json: command("c1"))
        #expect(missing.status == 401)
        let wrong = try app.request(
            "POST", path, headers: ["Authorization": "Bearer \(other.token)"], json: command("c1"))
        #expect(wrong.status == 403)
        let refused = try app.request(
            "POST", path, headers: ["Authorization": "Bearer \(game.token)"], json: command("c1", player: "x"))
        #expect(refused.status == 409)
        #expect(try refused.json["code"] == "unknown_player")
        let bad = try app.request(
            "POST", path, headers: ["Authorization": "Bearer \(game.token)"], body: Array("{".utf8))
        #expect(bad.status == 400)
        let ok = try app.request("POST", path, headers: ["Authorization": "Bearer \(game.token)"], json: command("c2"))
        #expect(ok.status == 200)
        #expect(try ok.json == ["v": 1, "type": "ack", "id": "c2", "seq": 1])
    }

    @Test("the application's submit takes the same path as the route")
    func submitAPI() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let answer = Answer()
        app.app.submit(command: command("c1").canonicalBytes, toGame: .init(game.id)) { answer.set($0) }
        #expect(try JSONValue(parsing: answer.wait()) == ["v": 1, "type": "ack", "id": "c1", "seq": 1])
        app.app.submit(command: command("c2").canonicalBytes, toGame: "game-404") { answer.set($0) }
        #expect(try JSONValue(parsing: answer.wait())["code"] == "unknown_game")
    }
}
