import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import Foundation
import Testing

/// Prints how fast durable writes go on this machine, for docs/journal.md. It asserts only correctness (every
/// write stored); the figures vary with the disk and the load, so no speed is asserted. Bounded in count and time.
@Suite("SQLite journal: throughput figures", .ownThread)
struct JournalThroughputTests {
    @Test("one event per transaction vs group commit: prints writes/s, asserts every write stored")
    func throughput() throws {
        let harness = try JournalHarness(.sqlite)
        let journal = try #require(harness.journal as? SQLiteJournal)

        // One synchronous append at a time: each waits for its own commit, so each pays one fsync.
        try journal.createGame(makeRecord(makeSetup("single")))
        let singleStart = Date()
        var single = 0
        while single < 5_000, Date().timeIntervalSince(singleStart) < 0.5 {
            single += 1
            try journal.append(moves(single...single), toGame: "single")
        }
        let singleRate = Double(single) / Date().timeIntervalSince(singleStart)

        // Many owners submitting without waiting: the writer groups whatever is pending into one transaction.
        let games = (0..<8).map { GameID("grouped-\($0)") }
        for id in games { try journal.createGame(makeRecord(makeSetup(id))) }
        let before = journal.statistics
        let perGame = 1_000
        let log = CompletionLog()
        let groupedStart = Date()
        for sequence in 1...perGame {
            for id in games {
                journal.append(
                    moves(sequence...sequence), toGame: id, completion: log.completion(for: "\(id)/\(sequence)"))
            }
        }
        #expect(log.wait(for: games.count * perGame))
        let groupedElapsed = Date().timeIntervalSince(groupedStart)
        let after = journal.statistics
        let groupedRate = Double(games.count * perGame) / groupedElapsed
        let transactions = after.transactions - before.transactions

        // Eight scorers, each waiting for its ack before sending the next command: a group holds about one write
        // per waiting scorer.
        let scorers = (0..<8).map { GameID("scorer-\($0)") }
        for id in scorers { try journal.createGame(makeRecord(makeSetup(id))) }
        let perScorer = 200
        let beforeScorers = journal.statistics
        let scorersStart = Date()
        // One thread per scorer (`concurrentPerform` would run only as many as there are cores).
        let scorersDone = DispatchSemaphore(value: 0)
        for id in scorers {
            Thread {
                for sequence in 1...perScorer {
                    try? journal.append(moves(sequence...sequence), toGame: id)
                }
                scorersDone.signal()
            }.start()
        }
        for _ in scorers {
            #expect(scorersDone.wait(timeout: .now() + 30) == .success)
        }
        let scorersRate = Double(scorers.count * perScorer) / Date().timeIntervalSince(scorersStart)
        let scorerTransactions = journal.statistics.transactions - beforeScorers.transactions
        print(
            """
            journal throughput (debug build): \(single) single-event durable appends at \(Int(singleRate))/s; \
            \(games.count * perGame) grouped appends at \(Int(groupedRate))/s in \(transactions) transactions \
            (\(games.count * perGame / max(transactions, 1)) writes per fsync); \(scorers.count) scorers waiting for \
            each ack: \(Int(scorersRate)) appends/s, \
            \(String(format: "%.1f", Double(scorers.count * perScorer) / Double(max(scorerTransactions, 1)))) writes per fsync
            """)

        #expect(log.failures.isEmpty)
        try harness.reopen()
        let loaded = try harness.journal.loadGames()
        #expect(loaded.first?.lastEventSequence == single)
        #expect(loaded.dropFirst().prefix(games.count).allSatisfy { $0.lastEventSequence == perGame })
        #expect(loaded.suffix(scorers.count).allSatisfy { $0.events == moves(1...perScorer) })
    }
}
