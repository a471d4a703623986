import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

/// The server's limits over real sockets: the scorer token's rate survives reconnects, `POST …/commands` is limited
/// per address, and failed authentications are logged (never the token) and slowed per address.
@Suite("Rate limits and failed authentications", .ownThread)
struct RateLimitAuditTests {
    @Test("reconnecting does not refill the scorer token's bucket")
    func scorerBucketSurvivesReconnect() throws {
        let app = try TestApp(configure: {
            $0.commandBurst = 3
            $0.commandsPerSecond = 0.001
        })
        let game = try app.createGame()
        let first = try app.scorer(game)
        _ = try first.readJSON()
        let before = try first.answers(toCommands: ["c0", "c1", "c2"])
        #expect(before.values.allSatisfy { $0["type"] == "ack" })
        first.close()
        let second = try app.scorer(game)
        _ = try second.readJSON()
        let after = try second.answers(toCommands: ["c3"])
        #expect(after["c3"]?["code"] == "rate_limited")
        #expect(try app.snapshot(game.id)["seq"] == 3)
    }

    @Test("POST /api/games/{id}/commands is rate limited per client address: 429 rate_limited, not applied")
    func httpCommandsPerAddress() throws {
        let app = try TestApp(configure: {
            $0.commandBurst = 2
            $0.commandsPerSecond = 0.001
        })
        let game = try app.createGame()
        var statuses: [Int] = []
        var last: ClientResponse?
        for index in 0..<3 {
            let response = try app.request(
                "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
                json: command("h\(index)"))
            statuses.append(response.status)
            last = response
        }
        #expect(statuses == [200, 200, 429])
        #expect(try last?.json["code"] == "rate_limited")
        #expect(try last?.json["id"] == "h2")
        #expect(last?.header("Retry-After") == "1")
        #expect(try app.snapshot(game.id)["seq"] == 2)
    }

    @Test("wrong tokens are logged with address, route and target, never the token; past five, wrong ones wait")
    func failedAuthentications() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let guesses = (0..<6).map { "guessed-token-\($0)-\(UUID().uuidString)" }
        // Six wrong admin tokens, on a creation and on /reopen (one target: the admin token).
        for (index, guess) in guesses.enumerated() {
            let path = index.isMultiple(of: 2) ? "/api/games" : "/api/games/\(game.id)/reopen"
            let response = try app.request(
                "POST", path, headers: ["Authorization": "Bearer \(guess)"], json: TestApp.sampleGame)
            #expect(response.status == 403, "guess \(index)")
        }
        // The sixth failure started a 2 s wait for wrong admin tokens from this address.
        let waiting = try app.request(
            "POST", "/api/games", headers: ["Authorization": "Bearer wrong-again"], json: TestApp.sampleGame)
        #expect(waiting.status == 429)
        #expect(try waiting.json["code"] == "too_many_failed_authentications")
        #expect(waiting.header("Retry-After") == "2")
        // The admin failures do not touch the game's scorer token, and its success does not clear them.
        _ = try app.scorer(game)
        let stillWaiting = try app.request(
            "POST", "/api/games", headers: ["Authorization": "Bearer wrong-once-more"], json: TestApp.sampleGame)
        #expect(stillWaiting.status == 429)
        // The right admin token still works during the wait: a mistyping neighbour cannot lock the admin out.
        let created = try app.request(
            "POST", "/api/games", headers: ["Authorization": "Bearer \(TestApp.adminToken)"], json: TestApp.sampleGame)
        #expect(created.status == 201)
        let lines = app.logLines.all.filter { $0.contains("authentication failed") }
        #expect(lines.count == 6, "the refusals inside the wait are not logged again: \(lines)")
        #expect(lines.allSatisfy { $0.contains("client=127.0.0.1") && $0.contains("target=admin") })
        #expect(lines.contains { $0.contains("route=/api/games ") || $0.hasSuffix("route=/api/games") })
        #expect(lines.contains { $0.contains("route=/api/games/\(game.id)/reopen") })
        let everything = app.logLines.all.joined(separator: "\n")
        #expect(guesses.allSatisfy { !everything.contains($0) }, "a token reached the log")
        #expect(!everything.contains(game.token))
        #expect(try app.request("GET", "/metrics").text.contains("courtside_authentication_failures_total 8\n"))
    }

    @Test("a scorer token is never locked out by wrong ones from its address; /next counts against its game")
    func rightScorerTokenAlwaysWorks() throws {
        let app = try TestApp()
        _ = try app.request(
            "POST", "/api/courts", headers: ["Authorization": "Bearer \(TestApp.adminToken)"], json: ["name": "Park"])
        var body = TestApp.sampleGame.objectValue ?? [:]
        body["court"] = "court-1"
        let game = try app.createGame(.object(body))
        // A spectator behind the same NAT tries six wrong tokens on the game's routes, /next included.
        for index in 0..<6 {
            let path = index.isMultiple(of: 2) ? "/api/games/\(game.id)/commands" : "/api/courts/court-1/next"
            let response = try app.request(
                "POST", path, headers: ["Authorization": "Bearer wrong-\(index)"], json: command("w\(index)"))
            #expect(response.status == 403, "guess \(index) on \(path)")
        }
        let waiting = try app.request(
            "POST", "/api/courts/court-1/next", headers: ["Authorization": "Bearer wrong-again"], json: [:])
        #expect(waiting.status == 429)
        // The scorer, from the same address, gets in at once over the socket and over HTTP.
        let scorer = try app.scorer(game)
        #expect(try scorer.answers(toCommands: ["c1"])["c1"]?["type"] == "ack")
        let applied = try app.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c2"))
        #expect(applied.status == 200)
        // /next with the right token is checked (nobody waits on the court yet), not refused as a guess.
        let early = try app.request(
            "POST", "/api/courts/court-1/next", headers: ["Authorization": "Bearer \(game.token)"], json: [:])
        #expect(try early.json["code"] == "queue_empty")
        // The admin token was never guessed: no wait there.
        #expect(
            try app.request(
                "POST", "/api/games", headers: ["Authorization": "Bearer wrong-admin"], json: TestApp.sampleGame
            ).status == 403)
        let lines = app.logLines.all.filter { $0.contains("authentication failed") }
        #expect(lines.contains { $0.contains("route=/api/courts/court-1/next") && $0.contains("target=game") })
        #expect(lines.filter { $0.contains("target=game:\(game.id)") }.count == 6, "\(lines)")
    }
}
