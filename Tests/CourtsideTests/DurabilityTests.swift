import Courtside
import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@Suite("Durability and restarts", .ownThread)
struct DurabilityTests {
    @Test("a command is acked only after its event is durable; spectators see the patch before")
    func ackAfterDurable() throws {
        let journal = DelayedJournal()
        let app = try TestApp(journal: journal)
        let game = try app.createGame()
        let scorer = try app.scorer(game)
        let spectator = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)")
        _ = try spectator.readJSON()
        _ = try scorer.readJSON()
        journal.hold()
        try scorer.send(json: command("c1"))
        #expect(try spectator.readJSON()["seq"] == 1)  // the spectator path does not wait for the disk
        #expect(try scorer.readJSON()["type"] == "patch")
        // The retry of an unacked command must wait too: its event is not stored yet.
        try scorer.send(json: command("c1"))
        let answer = Answer()
        app.app.submit(command: command("c1").canonicalBytes, toGame: GameID(game.id)) { answer.set($0) }
        #expect(!answer.arrived(withinMilliseconds: 300))
        #expect(!scorer.socket.isReadable(withinMilliseconds: 100))  // no ack, not even for the retry
        #expect(journal.heldCount == 1)
        journal.release()
        #expect(try scorer.readJSON() == ["v": 1, "type": "ack", "id": "c1", "seq": 1])
        #expect(try scorer.readJSON() == ["v": 1, "type": "ack", "id": "c1", "seq": 1])
        #expect(try JSONValue(parsing: answer.wait())["type"] == "ack")
        #expect(journal.inner.contents.first?.events.map(\.presentationSequence) == [1])
    }

    @Test("after a failed journal write the game answers unavailable and never acks the lost command")
    func failedWrite() throws {
        let journal = DelayedJournal()
        let app = try TestApp(journal: journal)
        let game = try app.createGame()
        let scorer = try app.scorer(game)
        _ = try scorer.readJSON()
        try scorer.send(json: command("c1"))
        while try scorer.readJSON()["type"] != "ack" {}
        journal.failAppends()
        try scorer.send(json: command("c2"))
        var reply: JSONValue = .null
        while reply["type"] != "error" { reply = try scorer.readJSON() }
        #expect(reply["id"] == "c2")
        #expect(reply["code"] == "unavailable")
        try scorer.send(json: command("c3"))
        #expect(try scorer.readJSON()["code"] == "unavailable")
        #expect(journal.inner.contents.first?.events.count == 1)
        #expect(app.logLines.all.contains { $0.contains("journal write failed") })
    }

    @Test("a restart on the same data directory restores every game with the same state and sequence numbers")
    func restart() throws {
        let directory = TestApp.makeTemporaryDirectory()
        var game: (id: String, token: String)
        var before: JSONValue
        do {
            let app = try TestApp(dataDirectory: directory)
            game = try app.createGame()
            _ = try app.createGame()
            let scorer = try app.scorer(game)
            _ = try scorer.readJSON()
            for (index, move) in ["twoPoints", "assist", "onePoint", "foul"].enumerated() {
                try scorer.send(json: command("c\(index)", move: move, player: "away-2"))
            }
            try scorer.send(json: ["type": "clock", "id": "k1", "action": "start"])
            try scorer.send(json: ["type": "clock", "id": "k2", "action": "pause"])
            try scorer.send(json: ["type": "undo", "id": "u1"])
            var acks = 0
            while acks < 7 { if try scorer.readJSON()["type"] == "ack" { acks += 1 } }
            before = try app.snapshot(game.id)
            app.app.shutdown()
        }
        #expect(before["seq"] == 7)
        let restarted = try TestApp(dataDirectory: directory)
        let after = try restarted.snapshot(game.id)
        #expect(after == before)
        #expect(try restarted.request("GET", "/api/games").json["games"]?.arrayValue?.count == 2)
        // The old token still scores; a retried CID gets its original ack; numbering continues.
        let scorer = try restarted.scorer(game)
        _ = try scorer.readJSON()
        try scorer.send(json: command("c1", move: "assist", player: "away-2"))
        #expect(try scorer.readJSON() == ["v": 1, "type": "ack", "id": "c1", "seq": 2])
        try scorer.send(json: command("c9", move: "rebound"))
        var ack: JSONValue = .null
        while ack["type"] != "ack" { ack = try scorer.readJSON() }
        #expect(ack["seq"] == 8)
    }

    @Test("a spectator resuming with since=N after a restart continues from a consistent document")
    func resumeAfterRestart() throws {
        let directory = TestApp.makeTemporaryDirectory()
        var game: (id: String, token: String)
        var mirror = DocumentMirror()
        do {
            let app = try TestApp(dataDirectory: directory)
            game = try app.createGame()
            let spectator = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)")
            try mirror.take(try spectator.readJSON())
            for index in 0..<5 {
                _ = try app.request(
                    "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
                    json: command("c\(index)", move: "onePoint"))
            }
            while mirror.seq < 5 { try mirror.take(try spectator.readJSON()) }
            app.app.shutdown()
        }
        let restarted = try TestApp(dataDirectory: directory)
        let resumed = try WebSocketClient(port: restarted.port, path: "/ws/games/\(game.id)?since=\(mirror.seq)")
        let first = try resumed.readJSON()
        // The process that made document 5 is gone, so the resume is a snapshot: at the same number, same state.
        #expect(first["type"] == "snapshot")
        #expect(first["seq"] == 5)
        #expect(first["state"] == mirror.state)
        try mirror.take(first)
        _ = try restarted.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c9"))
        try mirror.take(try resumed.readJSON())
        #expect(mirror.seq == 6)
        #expect(mirror.state == (try restarted.snapshot(game.id))["state"])
        // A second spectator resuming from a number this process published gets just the patch.
        let patchOnly = try WebSocketClient(port: restarted.port, path: "/ws/games/\(game.id)?since=6")
        _ = try restarted.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c10"))
        let next = try patchOnly.readJSON()
        #expect(next["type"] == "patch")
        #expect(next["seq"] == 7)
    }

    @Test("after a crash (no clean-shutdown mark) numbering resumes above every number that may have been published")
    func restartAfterCrash() throws {
        let journal = InMemoryJournal()
        let directory = TestApp.makeTemporaryDirectory()
        var game: (id: String, token: String)
        do {
            let app = try TestApp(dataDirectory: directory, journal: journal)
            game = try app.createGame()
            for index in 0..<3 {
                _ = try app.request(
                    "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
                    json: command("c\(index)"))
            }
            app.app.shutdown()
        }
        // A crash: the journal keeps what it stored, but no clean-shutdown mark is left.
        try FileManager.default.removeItem(atPath: directory + "/clean-shutdown")
        let restarted = try TestApp(dataDirectory: directory, journal: InMemoryJournal(restoring: journal.contents))
        let snapshot = try restarted.snapshot(game.id)
        let margin = 256 + 2
        #expect(snapshot["seq"]?.intValue == 3 + margin)
        #expect(snapshot["state"]?["homeScore"] == 6)
    }
}
