import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import Foundation
import Synchronization
import Testing

/// A benchmark, run on demand (`COURTSIDE_BENCH=1`): many games appending at a steady rate, as a league day would,
/// against each journal kind in one run; prints the completion latency percentiles. Asserts only that every write
/// was stored. Bounded: `seconds` of load per kind.
@Suite(
    "Journal under a paced load (COURTSIDE_BENCH=1)", .ownThread,
    .enabled(if: ProcessInfo.processInfo.environment["COURTSIDE_BENCH"] == "1", "a benchmark: COURTSIDE_BENCH=1"))
struct JournalPacedLoadTests {
    static let games = 1_000
    static let perSecond = 500
    static let seconds = 10

    @Test("1,000 games, 500 appends/s for 10 s: completion latency p50/p99/max per journal kind")
    func pacedLoad() throws {
        var lines: [String] = []
        for kind in JournalKind.tested where kind != .inMemory {
            let harness = try JournalHarness(kind)
            let journal = harness.journal
            let ids = (0..<Self.games).map { GameID("league-\($0)") }
            for id in ids { try journal.createGame(makeRecord(makeSetup(id))) }
            let latencies = Mutex<[Duration]>([])
            let failures = Mutex(0)
            let log = CompletionLog()
            var next = Array(repeating: 1, count: ids.count)
            let total = Self.perSecond * Self.seconds
            let interval = Duration.seconds(1) / Self.perSecond
            let start = ContinuousClock.now
            for index in 0..<total {
                let due = start + interval * index
                let wait = due - ContinuousClock.now
                if wait > .zero { usleep(UInt32(wait / .microseconds(1))) }
                let game = index % ids.count
                let sequence = next[game]
                next[game] += 1
                let submitted = ContinuousClock.now
                let done = log.completion(for: "\(index)")
                journal.append(moves(sequence...sequence), toGame: ids[game]) { result in
                    let elapsed = ContinuousClock.now - submitted
                    latencies.withLock { $0.append(elapsed) }
                    if case .failure = result { failures.withLock { $0 += 1 } }
                    done(result)
                }
            }
            #expect(log.wait(for: total, seconds: 60))
            let elapsed = ContinuousClock.now - start
            #expect(failures.withLock { $0 } == 0)
            let sorted = latencies.withLock { $0 }.sorted()
            func percentile(_ p: Double) -> String {
                let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
                return String(format: "%.2f ms", Double(value / .microseconds(1)) / 1000)
            }
            let rate = Double(total) / (Double(elapsed / .milliseconds(1)) / 1000)
            lines.append(
                "\(kind): \(total) appends over \(Self.games) games at \(Int(rate))/s: "
                    + "p50 \(percentile(0.5)) p99 \(percentile(0.99)) max \(percentile(1.0))")
            let loaded = try journal.loadGames()
            #expect(loaded.reduce(0) { $0 + $1.events.count } == total)
        }
        print("journal under a paced load (debug build):\n" + lines.joined(separator: "\n"))
    }
}
