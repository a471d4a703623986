import CSQLite
import CourtsideJournal
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

/// Health and recovery, over real sockets: `/healthz` says when the journal cannot write, a failed game
/// stores its writes once the disk has room and takes commands again, and a corrupt stored game is quarantined
/// while the server serves the others.
@Suite("Health and recovery", .ownThread)
struct HealthRecoveryTests {
    @Test("a full disk fails the game and /healthz says so; once there is room the write is retried and it recovers")
    func diskFullThenRoom() throws {
        let journal = DelayedJournal()
        let app = try TestApp(journal: journal, configure: { $0.storageRetryInterval = .milliseconds(20) })
        let game = try app.createGame()
        let auth = ["Authorization": "Bearer \(game.token)"]
        let path = "/api/games/\(game.id)/commands"
        #expect(try app.request("POST", path, headers: auth, json: command("c1")).status == 200)
        #expect(try app.request("GET", "/healthz").status == 200)

        journal.failAppends()
        let lost = try app.request("POST", path, headers: auth, json: command("c2"))
        #expect(lost.status == 503)
        #expect(try lost.json["code"] == "unavailable")
        let health = try app.request("GET", "/healthz")
        #expect(health.status == 503)
        #expect(try health.json["status"] == "failing")
        let problems = try #require(try health.json["problems"]?.arrayValue)
        #expect(problems.contains { $0.stringValue?.contains(game.id) == true })
        #expect(problems.contains { $0.stringValue?.contains("No space left on device") == true })
        #expect(try app.request("POST", path, headers: auth, json: command("c3")).status == 503)

        journal.stopFailing()
        #expect(try eventually { try app.request("GET", "/healthz").status == 200 }, "never recovered")
        // The write that failed is stored now: c2 is in the journal, and retrying it gets its original ack.
        let stored = journal.inner.contents.first { $0.id.rawValue == game.id }
        #expect(stored?.events.compactMap(\.event.commandID).map(\.rawValue) == ["c1", "c2"])
        let retried = try app.request("POST", path, headers: auth, json: command("c2"))
        #expect(retried.status == 200)
        #expect(try retried.json["seq"] == 2)
        #expect(try app.request("POST", path, headers: auth, json: command("c4")).status == 200)
        #expect(app.logLines.all.contains { $0.contains("the game takes commands again") })
    }

    @Test("/healthz is 503 while the journal refuses new games, naming the error, and ok after the next one is stored")
    func creationRefused() throws {
        let journal = DelayedJournal()
        let app = try TestApp(journal: journal)
        journal.failCreates()
        let refused = try app.request(
            "POST", "/api/games", headers: ["Authorization": "Bearer \(TestApp.adminToken)"], json: TestApp.sampleGame)
        #expect(refused.status == 500)
        let health = try app.request("GET", "/healthz")
        #expect(health.status == 503)
        #expect(
            try health.json["problems"]?.arrayValue?.first?.stringValue?.contains("No space left on device") == true)
        journal.stopFailing()
        _ = try app.createGame()
        #expect(try app.request("GET", "/healthz").status == 200)
    }

    @Test("a corrupt game row is quarantined: the server starts, that game answers an error naming the problem")
    func corruptRowQuarantined() throws {
        let directory = TestApp.makeTemporaryDirectory()
        var games: [(id: String, token: String)] = []
        do {
            let app = try TestApp(dataDirectory: directory)
            games = [try app.createGame(), try app.createGame()]
            app.app.shutdown()
        }
        // Damage the first game's setup as an editor or a bad disk might.
        var db: OpaquePointer?
        #expect(sqlite3_open(directory + "/courtside.sqlite3", &db) == SQLITE_OK)
        let sql = "UPDATE games SET setup_json = '{\"broken\":' WHERE id = '\(games[0].id)'"
        #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)

        let restarted = try TestApp(dataDirectory: directory)
        let broken = try restarted.request("GET", "/api/games/\(games[0].id)")
        #expect(broken.status == 500)
        #expect(try broken.json["code"] == "game_quarantined")
        let message = try #require(try broken.json["message"]?.stringValue)
        #expect(message.contains(games[0].id) && message.contains("unreadable record"))
        let socket = try restarted.request(
            "GET", "/ws/games/\(games[0].id)",
            headers: [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            ])
        #expect(socket.status == 500)
        #expect(try restarted.snapshot(games[1].id)["state"]?["homeTeam"] == "Lakers")
        let health = try restarted.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(try health.json["quarantined"]?.arrayValue?.first?["game"]?.stringValue == games[0].id)
        // Its id is never given to a new game.
        let created = try restarted.createGame()
        #expect(created.id != games[0].id && created.id != games[1].id)
        #expect(restarted.logLines.all.contains { $0.contains("game quarantined") })
    }

    @Test("a stored game whose events do not replay is quarantined too; the others are served")
    func unreplayableGameQuarantined() throws {
        let journal = InMemoryJournal()
        let directory = TestApp.makeTemporaryDirectory()
        var games: [(id: String, token: String)] = []
        do {
            let app = try TestApp(dataDirectory: directory, journal: journal)
            games = [try app.createGame(), try app.createGame()]
            _ = try app.request(
                "POST", "/api/games/\(games[0].id)/commands", headers: ["Authorization": "Bearer \(games[0].token)"],
                json: command("c1"))
            app.app.shutdown()
        }
        var contents = journal.contents
        let index = try #require(contents.firstIndex { $0.id.rawValue == games[0].id })
        // A second copy of the first event: the same command id twice does not replay.
        contents[index].events.append(contents[index].events[0])
        let restarted = try TestApp(dataDirectory: directory, journal: InMemoryJournal(restoring: contents))
        let broken = try restarted.request("GET", "/api/games/\(games[0].id)")
        #expect(broken.status == 500)
        #expect(try broken.json["message"]?.stringValue?.contains("does not replay") == true)
        #expect(try restarted.request("GET", "/api/games/\(games[1].id)").status == 200)
    }
}
