import Courtside
import CourtsideTestSupport
import CourtsideViewModels
import Testing

/// The table crew over real sockets (docs/protocol.md, "The table crew").
@Suite("Table crew: routes, roles on the scorer socket, presence, revocation", .ownThread)
struct CrewSocketTests {
    /// Adds a member with the game's scorer token; returns its id and token.
    static func addMember(
        _ app: TestApp, _ game: (id: String, token: String), role: String, label: String = "Table laptop"
    ) throws -> (id: String, token: String) {
        let response = try app.request(
            "POST", "/api/games/\(game.id)/crew", headers: ["Authorization": "Bearer \(game.token)"],
            json: ["role": .string(role), "label": .string(label)])
        let json = try response.json
        guard response.status == 201, let member = json["member"]?.stringValue, let token = json["token"]?.stringValue
        else { throw ClientError("add member: \(response.status) \(response.text)") }
        return (member, token)
    }

    /// Reads until a message of `type` that satisfies `matches` (each read has the client's deadline).
    static func read(
        _ client: WebSocketClient, type: String, where matches: (JSONValue) -> Bool = { _ in true }
    ) throws -> JSONValue {
        for _ in 0..<200 {
            let message = try client.readJSON()
            if message["type"]?.stringValue == type, matches(message) { return message }
        }
        throw ClientError("no \(type) message")
    }

    @Test("POST adds m1, m2 (token shown once, never listed or logged); bad bodies and tokens are refused")
    func routes() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let path = "/api/games/\(game.id)/crew"
        let first = try Self.addMember(app, game, role: "clock")
        #expect(first.id == "m1")
        #expect(first.token.count == 32)
        let admin = try app.request(
            "POST", path, headers: ["Authorization": "Bearer \(TestApp.adminToken)"],
            json: ["role": "judge", "label": "Referee"])
        #expect(admin.status == 201)
        #expect(try admin.json["member"] == "m2")
        #expect(try app.request("POST", path, json: ["role": "clock", "label": "x"]).status == 401)
        #expect(
            try app.request("POST", path, headers: ["Authorization": "Bearer \(first.token)"], json: ["role": "clock"])
                .status == 403)
        let scorer = ["Authorization": "Bearer \(game.token)"]
        let badRole = try app.request("POST", path, headers: scorer, json: ["role": "coach", "label": ""])
        #expect(badRole.status == 400)
        #expect(try badRole.json["code"] == "invalid_crew_member")
        #expect(try badRole.json["fields"]?["role"] != nil)
        #expect(try badRole.json["fields"]?["label"] != nil)
        let extra = try app.request("POST", path, headers: scorer, json: ["role": "clock", "label": "x", "token": "y"])
        #expect(extra.status == 400)
        #expect(try extra.json["code"] == "bad_request")
        let notJSON = try app.request("POST", path, headers: scorer, body: Array("{nope".utf8))
        #expect(try notJSON.json["code"] == "bad_json")
        // The list: for a member's token too, never with a token.
        let list = try app.request("GET", path, headers: ["Authorization": "Bearer \(first.token)"])
        #expect(list.status == 200)
        let members = try list.json["members"]?.arrayValue ?? []
        #expect(members.map { $0["member"] } == ["m1", "m2"])
        #expect(members.first?["role"] == "clock")
        #expect(members.first?["connected"] == false)
        #expect(members.first?["lastCommandAt"] == .null)
        #expect(!list.text.contains(first.token))
        #expect(try app.request("GET", path).status == 401)
        #expect(!String(decoding: try app.snapshot(game.id).canonicalBytes, as: UTF8.self).contains("m1"))
        #expect(!app.logLines.all.contains { $0.contains(first.token) })
    }

    @Test("each role's commands outside it are refused with not_allowed_for_role; its own are acked")
    func roles() throws {
        let app = try TestApp()
        let game = try app.createGame([
            "homeTeam": "Lakers", "homePlayers": ["Ann", "Bo", "Cy"], "awayTeam": "Celtics",
            "awayPlayers": ["Di", "Ed", "Flo"], "rules": ["preset": "fiba3x3"],
        ])
        let refused: [String: [JSONValue]] = [
            "clock": [command("a1", move: "rebound"), ["type": "undo", "id": "a2"], ["type": "final", "id": "a3"]],
            "shotClock": [["type": "clock", "id": "b1", "action": "start"], command("b2", move: "rebound")],
            "stats": [
                command("s1", move: "twoPoints"), command("s2", move: "foul"), ["type": "endPeriod", "id": "s3"],
            ],
            "judge": [command("j1", move: "rebound"), ["type": "clock", "id": "j2", "action": "start"]],
        ]
        let allowed: [String: JSONValue] = [
            "clock": ["type": "possession", "id": "a9", "team": "home"],
            "shotClock": ["type": "shotClock", "id": "b9", "action": "set", "ms": 7000],
            "stats": command("s9", move: "onePointMissed"),
            "judge": ["type": "review", "id": "j9", "action": "start"],
        ]
        for role in ["clock", "shotClock", "stats", "judge"] {
            let member = try Self.addMember(app, game, role: role)
            let client = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)/scorer")
            try client.send(json: ["type": "auth", "token": .string(member.token)])
            let answer = try Self.read(client, type: "authenticated")
            #expect(answer["role"] == .string(role))
            #expect(answer["member"] == .string(member.id))
            let seq = try app.snapshot(game.id)["seq"]
            for command in refused[role] ?? [] {
                try client.send(json: command)
                let reply = try Self.read(client, type: "error") { $0["id"] == command["id"] }
                #expect(reply["code"] == "not_allowed_for_role", "\(role) \(command)")
            }
            #expect(try app.snapshot(game.id)["seq"] == seq)
            let own = try #require(allowed[role])
            try client.send(json: own)
            #expect(try Self.read(client, type: "ack") { $0["id"] == own["id"] }["id"] == own["id"])
            client.close()
        }
        #expect(try app.snapshot(game.id)["state"]?["underReview"] == true)
        // The plays report names the member who entered a play (the stats member is m3).
        let plays = try app.request("GET", "/api/games/\(game.id)/plays").json["plays"]?.arrayValue ?? []
        #expect(plays.map { $0["enteredBy"] } == ["m3"])
    }

    @Test("presence reaches the scorer; revoking closes the member's live socket with 4401 and refuses the token")
    func presenceAndRevocation() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let scorer = try app.scorer(game)
        let member = try Self.addMember(app, game, role: "stats")
        let crew = try Self.read(scorer, type: "crew")
        #expect(crew["members"]?.arrayValue?.map { $0["member"] } == ["m1"])
        let laptop = try app.scorer((game.id, member.token))
        let joined = try Self.read(scorer, type: "crew") { $0["members"]?.arrayValue?.first?["connected"] == true }
        #expect(joined["members"]?.arrayValue?.first?["role"] == "stats")
        #expect(try Self.read(laptop, type: "crew")["game"] == .string(game.id))
        let deleted = try app.request(
            "DELETE", "/api/games/\(game.id)/crew/\(member.id)", headers: ["Authorization": "Bearer \(game.token)"])
        #expect(deleted.status == 200)
        #expect(try deleted.json == ["member": "m1", "revoked": true])
        #expect(try laptop.readCloseCode() == 4401)
        let gone = try Self.read(scorer, type: "crew") { $0["members"]?.arrayValue?.isEmpty == true }
        #expect(gone["members"] == [])
        let again = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)/scorer")
        try again.send(json: ["type": "auth", "token": .string(member.token)])
        #expect(try again.readCloseCode() == 1008)
        let twice = try app.request(
            "DELETE", "/api/games/\(game.id)/crew/\(member.id)", headers: ["Authorization": "Bearer \(game.token)"])
        #expect(twice.status == 404)
        #expect(try twice.json["code"] == "unknown_member")
    }

    @Test("the crew lives in the game's journal: after a restart a member's token works and a revoked one does not")
    func survivesRestart() throws {
        let directory = TestApp.makeTemporaryDirectory()
        let game: (id: String, token: String)
        let timer: (id: String, token: String)
        let revoked: (id: String, token: String)
        do {
            let app = try TestApp(dataDirectory: directory)
            game = try app.createGame()
            timer = try Self.addMember(app, game, role: "clock")
            revoked = try Self.addMember(app, game, role: "stats")
            let client = try app.scorer((game.id, timer.token))
            try client.send(json: ["type": "clock", "id": "p1", "action": "start"])
            _ = try Self.read(client, type: "ack")
            let deleted = try app.request(
                "DELETE", "/api/games/\(game.id)/crew/\(revoked.id)",
                headers: ["Authorization": "Bearer \(TestApp.adminToken)"])
            #expect(deleted.status == 200)
        }
        let app = try TestApp(dataDirectory: directory)
        let client = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)/scorer")
        try client.send(json: ["type": "auth", "token": .string(timer.token)])
        #expect(try Self.read(client, type: "authenticated")["role"] == "clock")
        let refused = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)/scorer")
        try refused.send(json: ["type": "auth", "token": .string(revoked.token)])
        #expect(try refused.readCloseCode() == 1008)
        let list = try app.request(
            "GET", "/api/games/\(game.id)/crew", headers: ["Authorization": "Bearer \(game.token)"])
        let members = try list.json["members"]?.arrayValue ?? []
        #expect(members.map { $0["member"] } == ["m1"])
        #expect(members.first?["lastCommandAt"]?.intValue != nil)
        let next = try Self.addMember(app, game, role: "judge")
        #expect(next.id == "m3")
    }
}
