import CourtsideRandom
import Testing

@testable import Courtside

@Suite("Webhook retry backoff")
struct WebhookBackoffTests {
    @Test("waits double from the first delay, each drawn from its upper half, up to the cap")
    func doublesWithJitter() {
        var backoff = WebhookBackoff()
        var random = SplitMix64(seed: 42)
        var now: Int64 = 1_000_000
        var ceilings: [Int64] = []
        for attempt in 0..<15 {
            guard case .retry(let at) = backoff.failed(nowMs: now, random: &random) else {
                Issue.record("gave up after \(attempt) failures")
                return
            }
            let ceiling = min(500 << Int64(attempt), backoff.maxDelayMs)
            ceilings.append(ceiling)
            #expect(at - now >= ceiling / 2 && at - now <= ceiling, "attempt \(attempt): waits \(at - now) ms")
            now = at
        }
        #expect(ceilings.prefix(4) == [500, 1_000, 2_000, 4_000])
        #expect(ceilings.last == 600_000)
    }

    @Test("two seeds give different waits (the jitter is drawn, not fixed)")
    func jitterDiffers() {
        func waits(seed: UInt64) -> [Int64] {
            var backoff = WebhookBackoff()
            var random = SplitMix64(seed: seed)
            return (0..<6).map { _ in
                if case .retry(let at) = backoff.failed(nowMs: 0, random: &random) { return at }
                return -1
            }
        }
        #expect(waits(seed: 1) != waits(seed: 2))
        #expect(waits(seed: 1) == waits(seed: 1))
    }

    @Test("failures lasting 24 h give up; the last retry lands on the deadline")
    func givesUpAfterADay() {
        var backoff = WebhookBackoff()
        var random = SplitMix64(seed: 7)
        let start: Int64 = 5_000
        var now = start
        var retries = 0
        while case .retry(let at) = backoff.failed(nowMs: now, random: &random) {
            #expect(at <= start + backoff.giveUpAfterMs)
            now = at
            retries += 1
            guard retries < 1_000 else {
                Issue.record("never gave up")
                return
            }
        }
        #expect(now == start + 24 * 60 * 60 * 1000)
        #expect(retries > 100)
    }

    @Test("a success starts the next failure from the first delay again")
    func successResets() {
        var backoff = WebhookBackoff()
        var random = SplitMix64(seed: 3)
        for _ in 0..<8 { _ = backoff.failed(nowMs: 0, random: &random) }
        backoff.succeeded()
        #expect(backoff.failures == 0 && backoff.failingSinceMs == nil)
        guard case .retry(let at) = backoff.failed(nowMs: 100_000_000, random: &random) else {
            Issue.record("gave up after a success")
            return
        }
        #expect(at - 100_000_000 <= 500)
    }
}
