import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Synchronization
import Testing

@testable import Courtside

/// The venue surfaces attacked as an outsider would, over loopback: names, the pickup queue, `/next` and the court
/// reads (docs/server.md, "Threat model").
@Suite("Courts under attack: names, the queue's join code and origin, /next, cached reads", .ownThread)
struct CourtSecurityTests {
    /// Each request from its own forwarded address, so the queue's per-address rate does not get in the way.
    static func from(_ address: String) -> [String: String] {
        TestApp.jsonType.merging(["X-Forwarded-For": address]) { $1 }
    }

    static func behindProxy(_ configuration: inout ServerConfiguration) {
        configuration.trustedProxies = [IPAddressRange("127.0.0.1/32")!]
    }

    @Test("a letter with thousands of combining marks, bidi overrides and NUL are refused, naming the field")
    func nameBomb() throws {
        let app = try TestApp(configure: Self.behindProxy)
        let court = try app.createCourt("Park")
        let code = try app.joinCode(court)
        let bomb = "A" + String(repeating: "\u{301}", count: 5_000)
        let refused = try app.join(court.id, name: bomb, code: code, headers: Self.from("10.0.0.1"))
        #expect(refused.status == 400)
        #expect(try refused.json["code"] == "invalid_team")
        #expect(try refused.json["fields"]?["homeTeam"] == "Use at most 160 bytes of UTF-8")
        let player = try app.join(
            court.id, name: "Owls", players: ["a", "b\u{202E}", "c"], code: code, headers: Self.from("10.0.0.2"))
        #expect(try player.json["fields"]?["homePlayers[1]"] == "Remove the invisible formatting character U+202E")
        #expect(try app.request("GET", "/api/courts/\(court.id)").json["queue"] == [])
        var game = TestApp.sampleGame.objectValue ?? [:]
        game["awayTeam"] = "Cel\u{0}tics"
        let created = try app.request("POST", "/api/games", headers: TestApp.adminAuth, json: .object(game))
        #expect(created.status == 400)
        #expect(try created.json["fields"]?["awayTeam"] == "Remove the control character U+0000")
        let named = try app.request(
            "POST", "/api/courts", headers: TestApp.adminAuth, json: ["name": "\u{3164}\u{3164}"])
        #expect(try named.json["fields"]?["name"] == "Use visible letters")
    }

    @Test("teams join with the display's code (or the admin token); admin-only courts refuse strangers")
    func joinCode() throws {
        let app = try TestApp(configure: Self.behindProxy)
        let court = try app.createCourt("Park")
        #expect(try app.request("GET", "/api/courts/\(court.id)/code").status == 401)
        let wrongKey = try app.request(
            "GET", "/api/courts/\(court.id)/code", headers: ["Authorization": "Bearer not-the-key"])
        #expect(wrongKey.status == 403)
        let code = try app.joinCode(court)
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        let other = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
        let missing = try app.join(court.id, name: "Owls", code: nil, headers: Self.from("10.0.1.1"))
        #expect(missing.status == 403)
        #expect(try missing.json["code"] == "wrong_join_code")
        #expect(try app.join(court.id, name: "Owls", code: other, headers: Self.from("10.0.1.2")).status == 403)
        let joined = try app.join(court.id, name: "Owls", code: code, headers: Self.from("10.0.1.3"))
        #expect(joined.status == 200)
        #expect(try joined.json["next"]?["name"] == "Owls")
        // The public document never carries the key's digest nor the code.
        let document = try app.request("GET", "/api/courts/\(court.id)").text
        #expect(document.contains(#""joining":"code""#))
        #expect(!document.contains(code) && !document.lowercased().contains("key"))
        let staff = try app.createCourt("Desk", joining: "admin")
        let stranger = try app.join(staff.id, name: "Elks", code: code, headers: Self.from("10.0.1.4"))
        #expect(try stranger.json["code"] == "joining_by_admin")
        let staffCode = try app.request(
            "GET", "/api/courts/\(staff.id)/code", headers: ["Authorization": "Bearer \(staff.displayKey)"])
        #expect(try staffCode.json["code"] == "joining_by_admin")
        var desk = Self.from("10.0.1.5")
        desk["Authorization"] = "Bearer \(TestApp.adminToken)"
        #expect(try app.join(staff.id, name: "Elks", code: nil, headers: desk).status == 200)
        // Switching to the code issues a new display key; the old one stops working.
        let switched = try app.request(
            "PUT", "/api/courts/\(court.id)", headers: TestApp.adminAuth, json: ["joining": "code"])
        let newKey = try #require(try switched.json["displayKey"]?.stringValue)
        #expect(newKey != court.displayKey)
        #expect(
            try app.request(
                "GET", "/api/courts/\(court.id)/code", headers: ["Authorization": "Bearer \(court.displayKey)"]
            ).status == 403)
        #expect(try app.joinCode((court.id, newKey)).count == 6)
    }

    @Test("the code rotates every ten minutes; the previous one is still accepted, older ones are not")
    func codeRotation() {
        let digest = String(repeating: "ab", count: 32)
        let start = Timestamp(milliseconds: 1_700_000_000_000)
        let shown = JoinCode.current(displayKeySHA256: digest, now: start)
        #expect(shown.expiresAt.milliseconds % JoinCode.period == 0)
        #expect(JoinCode.accepts(shown.code, displayKeySHA256: digest, now: start))
        let next = shown.expiresAt.advanced(byMilliseconds: 1)
        #expect(JoinCode.current(displayKeySHA256: digest, now: next).code != shown.code)
        #expect(JoinCode.accepts(shown.code, displayKeySHA256: digest, now: next))
        #expect(
            !JoinCode.accepts(shown.code, displayKeySHA256: digest, now: next.advanced(byMilliseconds: JoinCode.period))
        )
        #expect(JoinCode.current(displayKeySHA256: String(repeating: "cd", count: 32), now: start).code != shown.code)
    }

    @Test("a cross-origin or non-JSON join is refused; so is any state change from another site's page")
    func crossOrigin() throws {
        let app = try TestApp(configure: Self.behindProxy)
        let court = try app.createCourt("Park")
        let code = try app.joinCode(court)
        let plain = try app.join(
            court.id, name: "Owls", code: code, headers: ["Content-Type": "text/plain", "X-Forwarded-For": "10.0.2.1"])
        #expect(plain.status == 415)
        #expect(try plain.json["code"] == "unsupported_media_type")
        #expect(
            try app.join(court.id, name: "Owls", code: code, headers: ["X-Forwarded-For": "10.0.2.2"]).status == 415)
        for origin in ["https://evil.example", "null", "http://localhost.evil.example"] {
            var headers = Self.from("10.0.2.3")
            headers["Origin"] = origin
            let refused = try app.join(court.id, name: "Owls", code: code, headers: headers)
            #expect(refused.status == 403, "\(origin)")
            #expect(try refused.json["code"] == "origin_not_allowed")
        }
        var admin = TestApp.adminAuth
        admin["Origin"] = "https://evil.example"
        #expect(try app.request("PUT", "/api/courts/\(court.id)", headers: admin, json: ["game": .null]).status == 403)
        // The server's own pages (Origin matching Host, any scheme) join.
        var own = Self.from("10.0.2.4")
        own["Origin"] = "http://localhost"
        #expect(try app.join(court.id, name: "Owls", code: code, headers: own).status == 200)
    }

    @Test("the queue's rate limit counts an IPv6 client per /64, an IPv4 client per address")
    func ipv6PerSlash64() throws {
        #expect(ClientAddress.rateKey("2001:db8:1:2::1") == ClientAddress.rateKey("2001:db8:1:2:ffff::9"))
        #expect(ClientAddress.rateKey("2001:db8:1:2::1") != ClientAddress.rateKey("2001:db8:1:3::1"))
        #expect(ClientAddress.rateKey("::ffff:10.1.2.3") == "10.1.2.3")
        #expect(ClientAddress.rateKey("10.1.2.3") != ClientAddress.rateKey("10.1.2.4"))
        let app = try TestApp(configure: Self.behindProxy)
        let court = try app.createCourt("Park")
        let code = try app.joinCode(court)
        let statuses = try (1...4).map { host in
            try app.join(court.id, name: "T\(host)", code: code, headers: Self.from("2001:db8:1:2::\(host)")).status
        }
        #expect(statuses == [200, 200, 200, 429])
        #expect(try app.join(court.id, name: "T5", code: code, headers: Self.from("2001:db8:1:3::1")).status == 200)
    }

    @Test("the admin removes one queued team or clears the queue; strangers cannot")
    func adminQueueRoutes() throws {
        let app = try TestApp(configure: Self.behindProxy)
        let court = try app.createCourt("Park")
        for (index, name) in ["Owls", "Elks", "Hawks"].enumerated() {
            var headers = Self.from("10.0.3.\(index)")
            headers["Authorization"] = "Bearer \(TestApp.adminToken)"
            #expect(try app.join(court.id, name: name, code: nil, headers: headers).status == 200)
        }
        #expect(try app.request("DELETE", "/api/courts/\(court.id)/queue/1").status == 401)
        let removed = try app.request("DELETE", "/api/courts/\(court.id)/queue/1", headers: TestApp.adminAuth)
        #expect(try removed.json["queue"]?.arrayValue?.map { $0["name"] } == ["Owls", "Hawks"])
        let missing = try app.request("DELETE", "/api/courts/\(court.id)/queue/5", headers: TestApp.adminAuth)
        #expect(missing.status == 404)
        #expect(try missing.json["code"] == "no_queue_entry")
        let cleared = try app.request("DELETE", "/api/courts/\(court.id)/queue", headers: TestApp.adminAuth)
        #expect(try cleared.json["queue"] == [])
        #expect(try app.request("GET", "/api/courts/\(court.id)").json["next"] == .null)
    }

    /// A court with `teams` queued and a finished game on it; the game's id and token.
    static func finishedGameOnCourt(
        _ app: TestApp, teams: Int
    ) throws -> (court: String, game: (id: String, token: String)) {
        let court = try app.createCourt("Park")
        for index in 0..<teams {
            var headers = Self.from("10.0.4.\(index)")
            headers["Authorization"] = "Bearer \(TestApp.adminToken)"
            _ = try app.join(court.id, name: "Team \(index)", code: nil, headers: headers)
        }
        var body = ArchiveTests.shortGame.objectValue ?? [:]
        body["court"] = .string(court.id)
        let game = try app.createGame(.object(body))
        let ack = try app.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c1", player: "away-0"))
        #expect(try ack.json["type"] == "ack")
        return (court.id, game)
    }

    @Test("eight parallel /next calls with one finished game's token make one game and take one team")
    func nextRace() throws {
        let app = try TestApp(configure: Self.behindProxy)
        let (court, game) = try Self.finishedGameOnCourt(app, teams: 5)
        let statuses = Mutex<[Int]>([])
        let port = app.port
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let status =
                (try? LoopbackSocket(port: port).request(
                    "POST", "/api/courts/\(court)/next", headers: ["Authorization": "Bearer \(game.token)"],
                    body: Array("{}".utf8)
                ).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 201 }.count == 1, "\(all)")
        // Calls that arrive once the next game is on the court present a token that is not its game's: each is a
        // wrong token for that game (403), and past five from one address the throttle answers 429.
        #expect(all.allSatisfy { [201, 403, 409, 429].contains($0) }, "\(all)")
        let document = try app.request("GET", "/api/courts/\(court)").json
        #expect(document["queue"]?.arrayValue?.count == 4)
        #expect(document["streak"]?["wins"] == 1)
        #expect(try app.request("GET", "/api/games").json["games"]?.arrayValue?.count == 2)
        // The old token is no longer the court's game's: refused as a wrong one (or throttled, after the race's).
        let again = try app.request(
            "POST", "/api/courts/\(court)/next", headers: ["Authorization": "Bearer \(game.token)"], json: [:])
        #expect([403, 429].contains(again.status), "\(again.status)")
    }

    @Test("an archived game's scorer token cannot call /next")
    func nextArchived() async throws {
        let app = try TestApp(configure: {
            Self.behindProxy(&$0)
            $0.archiveAfter = .milliseconds(200)
        })
        let (court, game) = try Self.finishedGameOnCourt(app, teams: 1)
        var archived: [JSONValue] = []
        _ = try eventually {
            archived = try app.request("GET", "/api/games?status=archived").json["games"]?.arrayValue ?? []
            return !archived.isEmpty
        }
        #expect(archived.count == 1)
        let next = try app.request(
            "POST", "/api/courts/\(court)/next", headers: ["Authorization": "Bearer \(game.token)"], json: [:])
        #expect(next.status == 409)
        #expect(try next.json["code"] == "game_archived")
        #expect(try app.request("GET", "/api/courts/\(court)").json["queue"]?.arrayValue?.count == 1)
    }

    @Test("court reads are answered from bytes encoded once per change, while the lobby's loop is busy")
    func cachedReads() throws {
        // Four loops: the kernel spreads connections over them (SO_REUSEPORT), so most land off the lobby's loop.
        let app = try TestApp(configure: {
            Self.behindProxy(&$0)
            $0.threads = 4
        })
        let court = try app.createCourt("Park")
        let before = try app.request("GET", "/api/courts").body
        let gate = DispatchSemaphore(value: 0)
        let blocked = DispatchSemaphore(value: 0)
        app.app.core.courts.run { _ in
            blocked.signal()
            _ = gate.wait(timeout: .now() + 20)
        }
        defer { gate.signal() }
        #expect(blocked.wait(timeout: .now() + 5) == .success)
        // Before, every read hopped to the lobby's loop and waited behind it; now a connection on any other loop is
        // answered at once. Eight tries: all eight on the lobby's loop is a chance of 1 in 65,536.
        var answered: [ClientResponse] = []
        for _ in 0..<8 {
            if let response = try? LoopbackSocket(port: app.port, timeout: .seconds(1)).request("GET", "/api/courts") {
                answered.append(response)
            }
        }
        #expect(!answered.isEmpty)
        #expect(answered.allSatisfy { $0.body == before })
        #expect(String(decoding: before, as: UTF8.self).contains(court.id))
    }

    @Test("the largest court the rules allow fits its documented byte bound")
    func courtBytesBounded() throws {
        let name = String(repeating: "𝒜", count: DisplayName.maxScalars)
        let team = try QueuedTeam(name: name, players: Array(repeating: name, count: Team.playerCount))
        var court = try Court(id: "court-64", name: name)
        for _ in 0..<Court.maxQueueLength { try court.enqueue(team) }
        #expect(throws: CourtError.queueFull("court-64", limit: Court.maxQueueLength)) { try court.enqueue(team) }
        court.started("game-999999", winner: team, challenger: team)
        try court.enqueue(team)
        let bytes = CourtPresenter.json(court).canonicalBytes.count
        #expect(bytes > Court.maxDocumentBytes / 2)
        #expect(bytes <= Court.maxDocumentBytes)
    }
}
