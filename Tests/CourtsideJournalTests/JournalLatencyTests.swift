import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import Foundation
import Testing

/// Prints append latency and pipelined throughput of every journal kind in one run, side by side, for
/// docs/benchmarks.md. Asserts only that every write was stored; bounded in count and time.
@Suite("Journal append latency, side by side", .ownThread)
struct JournalLatencyTests {
    static let singles = 1_000
    static let games = 8
    static let perGame = 500

    @Test("one blocking append at a time (p50/p99) and 4,000 submitted at once, per journal kind")
    func sideBySide() throws {
        var lines: [String] = []
        for kind in JournalKind.tested where kind != .inMemory {
            let harness = try JournalHarness(kind)
            let journal = harness.journal
            try journal.createGame(makeRecord(makeSetup("single")))
            var latencies: [Duration] = []
            let deadline = ContinuousClock.now + .seconds(20)
            while latencies.count < Self.singles && ContinuousClock.now < deadline {
                let sequence = latencies.count + 1
                let start = ContinuousClock.now
                try journal.append(moves(sequence...sequence), toGame: "single")
                latencies.append(ContinuousClock.now - start)
            }
            latencies.sort()
            func percentile(_ p: Double) -> String {
                let value = latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
                return String(format: "%.3f ms", Double(value / .microseconds(1)) / 1000)
            }

            let ids = (0..<Self.games).map { GameID("grouped-\($0)") }
            for id in ids { try journal.createGame(makeRecord(makeSetup(id))) }
            let log = CompletionLog()
            let start = ContinuousClock.now
            for sequence in 1...Self.perGame {
                for id in ids {
                    journal.append(
                        moves(sequence...sequence), toGame: id, completion: log.completion(for: "\(id)/\(sequence)"))
                }
            }
            #expect(log.wait(for: ids.count * Self.perGame, seconds: 60))
            let elapsed = ContinuousClock.now - start
            let rate = Double(ids.count * Self.perGame) / (Double(elapsed / .microseconds(1)) / 1_000_000)
            #expect(log.failures.isEmpty)
            let loaded = try journal.loadGames()
            #expect(loaded.first?.lastEventSequence == latencies.count)
            #expect(loaded.dropFirst().allSatisfy { $0.lastEventSequence == Self.perGame })
            lines.append(
                "\(kind): \(latencies.count) blocking appends p50 \(percentile(0.5)) p99 \(percentile(0.99)) "
                    + "max \(percentile(1.0)); \(ids.count * Self.perGame) submitted at once: \(Int(rate))/s")
        }
        print("journal append latency (debug build):\n" + lines.joined(separator: "\n"))
    }
}
