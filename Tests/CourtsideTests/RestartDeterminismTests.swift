import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Synchronization
import Testing

/// The same `seq` always means the same document, byte for byte, across a clean restart (docs/server.md, "Sequence
/// numbers after a restart"): a stopped clock's `asOf` is the instant it stopped, whatever stopped it.
@Suite("Restart determinism", .ownThread)
struct RestartDeterminismTests {
    /// A wall clock that moves 1.5 s at every reading, so every command happens at its own instant.
    private static func steppingClock() -> @Sendable () -> Timestamp {
        let now = Mutex<Int64>(1_700_000_000_000)
        return {
            now.withLock { value in
                value += 1_500
                return Timestamp(milliseconds: value)
            }
        }
    }

    /// Plays `commands` over `POST …/commands`, restarts cleanly on the same journal contents and returns the
    /// document bytes before and after.
    private static func documentsAcrossRestart(rules: JSONValue, commands: [JSONValue]) throws -> (
        before: [UInt8], after: [UInt8]
    ) {
        let journal = InMemoryJournal()
        let directory = TestApp.makeTemporaryDirectory()
        guard case .object(var fields) = TestApp.sampleGame else { throw ClientError("sample game") }
        fields["rules"] = rules
        let body = JSONValue.object(fields)
        let before: [UInt8]
        let id: String
        do {
            let app = try TestApp(dataDirectory: directory, journal: journal, clock: steppingClock())
            let game = try app.createGame(body)
            id = game.id
            for command in commands {
                let answer = try app.request(
                    "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
                    json: command)
                #expect(answer.status == 200, "\(command): \(answer.text)")
            }
            before = try app.request("GET", "/api/games/\(game.id)").body
            app.app.shutdown()
        }
        #expect(FileManager.default.fileExists(atPath: directory + "/clean-shutdown"))
        let restarted = try TestApp(
            dataDirectory: directory, journal: InMemoryJournal(restoring: journal.contents), clock: steppingClock())
        return (before, try restarted.request("GET", "/api/games/\(id)").body)
    }

    private static func clock(_ action: String, _ id: String) -> JSONValue {
        ["type": "clock", "id": .string(id), "action": .string(action)]
    }

    @Test(
        "a refused command while the clock ran published a number without an event: after a clean restart the rebuilt document takes the next number, the same after a second restart"
    )
    func refusedWhileRunning() throws {
        let journal = InMemoryJournal()
        let directory = TestApp.makeTemporaryDirectory()
        var documents: [JSONValue] = []
        let id: String
        do {
            let app = try TestApp(dataDirectory: directory, journal: journal, clock: Self.steppingClock())
            let game = try app.createGame()
            id = game.id
            for (command, status) in [
                (Self.clock("start", "k1"), 200), (command("c1"), 200), (command("c2", player: "home-9"), 409),
            ] {
                let answer = try app.request(
                    "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
                    json: command)
                #expect(answer.status == status, "\(command): \(answer.text)")
            }
            documents.append(try app.snapshot(game.id))
            app.app.shutdown()
        }
        var contents = journal.contents
        for _ in 0..<2 {
            let restored = InMemoryJournal(restoring: contents)
            let restarted = try TestApp(dataDirectory: directory, journal: restored, clock: Self.steppingClock())
            documents.append(try restarted.snapshot(id))
            restarted.app.shutdown()
            contents = restored.contents
        }
        let (before, first, second) = (documents[0], documents[1], documents[2])
        // The refused command's patch refreshed `time` (3 s into the game); the rebuilt document reads the clock at
        // the basket (1.5 s): another document, so another number.
        #expect(before["seq"] == 3)
        #expect(first["state"]?["time"] != before["state"]?["time"])
        #expect(first["seq"] == 4, "\(first["seq"]?.description ?? "-")")
        #expect(first["state"]?["clock"] == before["state"]?["clock"])
        #expect(second == first, "a second clean restart: the same number, the same document")
    }

    @Test("a paused game comes back with the same seq and the same bytes")
    func paused() throws {
        let documents = try Self.documentsAcrossRestart(
            rules: ["preset": "pickup"],
            commands: [
                Self.clock("start", "k1"), command("c1"), Self.clock("pause", "k2"), command("c2", move: "foul"),
            ])
        #expect(String(decoding: documents.after, as: UTF8.self) == String(decoding: documents.before, as: UTF8.self))
    }

    @Test("a game finished by a basket while the clock ran comes back byte for byte (the clock stopped at the basket)")
    func finishedByBasket() throws {
        let documents = try Self.documentsAcrossRestart(
            rules: ["preset": "custom", "targetScore": 4, "winBy": 1],
            commands: [Self.clock("start", "k1"), command("c1"), command("c2")])
        #expect(String(decoding: documents.after, as: UTF8.self) == String(decoding: documents.before, as: UTF8.self))
        let after = try JSONValue(parsing: documents.after)
        #expect(after["state"]?["isFinished"] == true)
    }

    @Test("undoing the winning basket reopens the game with the clock where it stopped, the same after a restart")
    func reopenedByUndo() throws {
        let documents = try Self.documentsAcrossRestart(
            rules: ["preset": "custom", "targetScore": 4, "winBy": 1],
            commands: [
                Self.clock("start", "k1"), command("c1"), command("c2"), ["type": "undo", "id": "u1"],
                command("c3", move: "rebound"),
            ])
        #expect(String(decoding: documents.after, as: UTF8.self) == String(decoding: documents.before, as: UTF8.self))
    }
}
