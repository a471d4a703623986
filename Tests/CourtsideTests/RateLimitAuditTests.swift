import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

/// Issue 11's limits over real sockets: the scorer token's rate survives reconnects, `POST …/commands` is limited
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

    @Test("wrong tokens are logged with address and route, never the token; past five, the address must wait")
    func failedAuthentications() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let guesses = (0..<6).map { "guessed-token-\($0)-\(UUID().uuidString)" }
        for (index, guess) in guesses.enumerated() {
            let path = index.isMultiple(of: 2) ? "/api/games" : "/api/games/\(game.id)/commands"
            let response = try app.request(
                "POST", path, headers: ["Authorization": "Bearer \(guess)"], json: TestApp.sampleGame)
            #expect(response.status == 403, "guess \(index)")
        }
        // The sixth failure started a 2 s wait: even the right token is not looked at now.
        let waiting = try app.request(
            "POST", "/api/games", headers: ["Authorization": "Bearer \(TestApp.adminToken)"], json: TestApp.sampleGame)
        #expect(waiting.status == 429)
        #expect(try waiting.json["code"] == "too_many_failed_authentications")
        #expect(waiting.header("Retry-After") == "2")
        // The scorer socket from the same address is refused before its token is checked.
        let socket = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)/scorer")
        try socket.send(json: ["type": "auth", "token": .string(game.token)])
        #expect(try socket.readCloseCode() == 1008)

        let lines = app.logLines.all.filter { $0.contains("authentication failed") }
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.contains("client=127.0.0.1") })
        #expect(lines.contains { $0.contains("route=/api/games ") || $0.hasSuffix("route=/api/games") })
        #expect(lines.contains { $0.contains("route=/api/games/\(game.id)/commands") })
        let everything = app.logLines.all.joined(separator: "\n")
        #expect(guesses.allSatisfy { !everything.contains($0) }, "a token reached the log")
        #expect(!everything.contains(game.token))
        #expect(try app.request("GET", "/metrics").text.contains("courtside_authentication_failures_total 6"))
    }
}
