import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// Records completions from any thread and lets a test wait for all of them, with a deadline.
final class CompletionLog: Sendable {
    private let results = Mutex<[String: Result<Void, JournalError>]>([:])
    private let done = DispatchSemaphore(value: 0)

    func completion(for key: String) -> JournalCompletion {
        { result in
            self.results.withLock { $0[key] = result }
            self.done.signal()
        }
    }

    /// Waits for `count` completions; false when the deadline passed first.
    func wait(for count: Int, seconds: Double = 30) -> Bool {
        let deadline = DispatchTime.now() + seconds
        for _ in 0..<count where done.wait(timeout: deadline) == .timedOut {
            return false
        }
        return true
    }

    var snapshot: [String: Result<Void, JournalError>] {
        results.withLock { $0 }
    }

    var failures: [String] {
        snapshot.compactMap { key, result in
            if case .failure(let error) = result { return "\(key): \(error)" }
            return nil
        }
    }
}

@Suite("Group commit", .ownThread)
struct GroupCommitTests {
    static let threads = 4
    static let gamesPerThread = 2
    static let eventsPerGame = 150

    @Test(
        "concurrent appends from several threads all complete, durable and in per-game order",
        arguments: JournalKind.allCases)
    func concurrentAppends(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        let journal = harness.journal
        let games = (0..<Self.threads * Self.gamesPerThread).map { GameID("game-\($0)") }
        for id in games {
            try journal.createGame(makeRecord(makeSetup(id)))
        }
        let log = CompletionLog()
        let group = DispatchGroup()
        for thread in 0..<Self.threads {
            // Each thread owns its games and submits without waiting: submission order is the only ordering.
            let owned = Array(games[(thread * Self.gamesPerThread)..<((thread + 1) * Self.gamesPerThread)])
            DispatchQueue.global().async(group: group) {
                for sequence in 1...Self.eventsPerGame {
                    for id in owned {
                        journal.append(
                            moves(sequence...sequence), toGame: id, completion: log.completion(for: "\(id)/\(sequence)")
                        )
                    }
                }
            }
        }
        let total = games.count * Self.eventsPerGame
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(log.wait(for: total), "every completion is called")
        #expect(log.snapshot.count == total)
        #expect(log.failures.isEmpty, "\(log.failures.prefix(3))")
        if let sqlite = journal as? SQLiteJournal {
            let statistics = sqlite.statistics
            #expect(statistics.committedWrites == total + games.count)
            // Several writes share each transaction (each is one fsync); with 1,200 writes submitted at once the
            // writer cannot commit them one at a time.
            #expect(statistics.transactions < statistics.committedWrites)
        }
        try harness.reopen()
        let loaded = try harness.journal.loadGames()
        #expect(loaded.count == games.count)
        for game in loaded {
            #expect(game.events == moves(1...Self.eventsPerGame), "\(game.id)")
        }
    }

    @Test("in one group, a refused write fails alone while the others are stored", arguments: JournalKind.allCases)
    func refusedWriteFailsAlone(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        let journal = harness.journal
        try journal.createGame(makeRecord(makeSetup("a")))
        let log = CompletionLog()
        // Submitted back to back, so SQLite's writer most likely takes them as one group; either way the outcome
        // per write must be the same.
        journal.append(moves(1...2), toGame: "a", completion: log.completion(for: "first"))
        journal.append(moves(4...4), toGame: "a", completion: log.completion(for: "gap"))
        journal.createGame(makeRecord(makeSetup("b")), completion: log.completion(for: "create"))
        journal.append(moves(3...3), toGame: "a", completion: log.completion(for: "next"))
        journal.append(moves(1...1), toGame: "b", completion: log.completion(for: "b"))
        #expect(log.wait(for: 5))
        let results = log.snapshot
        #expect(log.failures.count == 1)
        if case .failure(let error) = results["gap"] {
            #expect(error == .unexpectedSequence("a", expected: 3, got: 4))
        } else {
            Issue.record("the gap was accepted")
        }
        try harness.reopen()
        #expect(try harness.journal.loadGames().map(\.events) == [moves(1...3), moves(1...1)])
    }

    @Test("closing from inside a completion, on the writer thread, neither deadlocks nor loses the write")
    func closeFromCompletion() throws {
        let harness = try JournalHarness(.sqlite)
        let journal = harness.journal
        try journal.createGame(makeRecord(makeSetup()))
        let log = CompletionLog()
        let closing = log.completion(for: "closing")
        journal.append(moves(1...1), toGame: "g1") { result in
            journal.close()
            closing(result)
        }
        #expect(log.wait(for: 1, seconds: 10), "the completion returned")
        journal.append(moves(2...2), toGame: "g1", completion: log.completion(for: "after"))
        #expect(log.wait(for: 1, seconds: 10))
        #expect(log.failures == ["after: the journal is closed"])
        try harness.reopen()
        #expect(try harness.journal.loadGames()[0].events == moves(1...1))
    }
}
