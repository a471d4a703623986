import Testing

@testable import CourtsideLoad

/// `courtside-load journal`'s stepping (`JournalLadder`) as traces of steps and outcomes, and its command line.
@Suite("courtside-load journal: the rate ladder and its options")
struct JournalLadderTests {
    @Test("rate by rate, every kind in turn; a saturated kind is skipped from then on, the other goes on")
    func ladderTrace() {
        var ladder = JournalLadder(kinds: [.sqlite, .redis], rates: [500, 1_000, 2_000], p99BoundMs: 100)
        #expect(ladder.next() == .run(.sqlite, rate: 500))
        #expect(ladder.record(.sqlite, rate: 500, achieved: 499, p99Ms: 20, failed: 0) == nil)
        #expect(ladder.next() == .run(.redis, rate: 500))
        #expect(ladder.record(.redis, rate: 500, achieved: 500, p99Ms: 10, failed: 0) == nil)
        #expect(ladder.next() == .run(.sqlite, rate: 1_000))
        let reason = ladder.record(.sqlite, rate: 1_000, achieved: 900, p99Ms: 20, failed: 0)
        #expect(reason == "completed 900/s of 1000/s")
        #expect(ladder.next() == .run(.redis, rate: 1_000))
        #expect(ladder.record(.redis, rate: 1_000, achieved: 1_000, p99Ms: 10, failed: 0) == nil)
        #expect(ladder.next() == .run(.redis, rate: 2_000), "SQLite saturated: not run again")
        #expect(ladder.record(.redis, rate: 2_000, achieved: 2_000, p99Ms: 10, failed: 0) == nil)
        #expect(ladder.next() == .finished)
        #expect(ladder.next() == .finished)
        #expect(ladder.saturated == [.sqlite: "at 1000/s: completed 900/s of 1000/s"])
    }

    @Test("failures, a rate not held and a p99 past the bound each saturate; 95% of the rate is held")
    func saturationRules() {
        var ladder = JournalLadder(kinds: [.redis], rates: [1_000], p99BoundMs: 100)
        #expect(ladder.record(.redis, rate: 1_000, achieved: 950, p99Ms: 100, failed: 0) == nil)
        #expect(ladder.record(.redis, rate: 1_000, achieved: 949, p99Ms: 1, failed: 0) != nil)
        #expect(ladder.record(.redis, rate: 1_000, achieved: 1_000, p99Ms: 100.5, failed: 0) != nil)
        #expect(ladder.record(.redis, rate: 1_000, achieved: 1_000, p99Ms: 1, failed: 3) == "3 appends failed")
        var all = JournalLadder(kinds: [.sqlite, .redis], rates: [500, 1_000], p99BoundMs: 100)
        _ = all.next()
        _ = all.record(.sqlite, rate: 500, achieved: 0, p99Ms: 0, failed: 1)
        _ = all.next()
        _ = all.record(.redis, rate: 500, achieved: 0, p99Ms: 0, failed: 1)
        #expect(all.next() == .finished, "every kind saturated: nothing left to run")
    }

    @Test("the options: defaults, the Redis URL required for the redis kind, loopback only, the password unshown")
    func options() throws {
        let sqliteOnly = try JournalOptions.parse(["--kinds", "sqlite", "--rates", "100,200", "--seconds", "1"]).get()
        #expect(sqliteOnly.kinds == [.sqlite])
        #expect(sqliteOnly.rates == [100, 200])
        #expect(sqliteOnly.games == 1_000)
        #expect(sqliteOnly.p99BoundMs == 1_000)
        #expect(JournalOptions.parse([]).failure == .missingValue("--redis (the redis kind needs a server)"))
        let remote = JournalOptions.parse(["--redis", "redis://:secret@10.1.2.3:6379/0"])
        #expect(remote.failure == .notLoopback("10.1.2.3"))
        #expect(!"\(remote.failure.map { "\($0)" } ?? "")".contains("secret"), "the password is never echoed")
        let notRedis = JournalOptions.parse(["--redis", "http://:secret@127.0.0.1:6379"])
        #expect(!"\(notRedis.failure.map { "\($0)" } ?? "")".contains("secret"))
        let local = try JournalOptions.parse(["--redis", "redis://:pw@127.0.0.1:6379/0", "--connections", "3"]).get()
        #expect(local.connections == 3)
        #expect(JournalOptions.parse(["--kinds", "sqlite,mongo"]).failure != nil)
        #expect(JournalOptions.parse(["--kinds", "sqlite", "--rates", "0"]).failure != nil)
        #expect(
            JournalOptions.parse(["--kinds", "sqlite", "--rates", "1000000", "--seconds", "120"]).failure != nil,
            "rate × seconds past the per-step bound is refused")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
