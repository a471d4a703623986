import Testing

@testable import Courtside

/// The pure parts of issue 11's limits, with time passed in: nothing here sleeps.
@Suite("Authentication throttle and shared token buckets")
struct AuthenticationThrottleTests {
    private let start = ContinuousClock.now

    @Test("five free failures, then a wait of 2 s doubling up to a minute")
    func schedule() {
        let throttle = AuthenticationThrottle()
        var now = start
        var waits: [Duration?] = []
        for _ in 0..<12 {
            // Each attempt comes once the previous wait is over, as an obedient guesser would.
            #expect(throttle.wait(for: "10.0.0.1", now: now) == nil)
            let wait = throttle.recordFailure(of: "10.0.0.1", now: now)
            waits.append(wait)
            now = now + (wait ?? .zero)
        }
        #expect(waits.prefix(5).allSatisfy { $0 == nil })
        #expect(Array(waits.dropFirst(5)) == [2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
    }

    @Test("during the wait the address is refused; the wait shrinks with time and ends; others are not affected")
    func waiting() {
        let throttle = AuthenticationThrottle()
        for _ in 0..<6 { throttle.recordFailure(of: "10.0.0.1", now: start) }
        #expect(throttle.wait(for: "10.0.0.1", now: start) == .seconds(2))
        #expect(throttle.wait(for: "10.0.0.1", now: start + .milliseconds(1500)) == .milliseconds(500))
        #expect(throttle.wait(for: "10.0.0.1", now: start + .seconds(2)) == nil)
        #expect(throttle.wait(for: "10.0.0.2", now: start) == nil)
    }

    @Test("a success starts the address over; failures ten minutes old are forgotten")
    func forgetting() {
        let throttle = AuthenticationThrottle()
        for _ in 0..<5 { throttle.recordFailure(of: "a", now: start) }
        throttle.recordSuccess(of: "a")
        #expect(throttle.recordFailure(of: "a", now: start) == nil)
        for _ in 0..<5 { throttle.recordFailure(of: "b", now: start) }
        #expect(throttle.recordFailure(of: "b", now: start + .seconds(600)) == nil)
    }

    @Test("the table of addresses stays bounded: forgotten entries are pruned")
    func bounded() {
        let throttle = AuthenticationThrottle(pruneThreshold: 100)
        for index in 0..<100 { throttle.recordFailure(of: "old-\(index)", now: start) }
        for index in 0..<50 { throttle.recordFailure(of: "new-\(index)", now: start + .seconds(700)) }
        #expect(throttle.count == 50)
    }

    @Test("shared buckets: one key's burst does not spend another's; full buckets are pruned")
    func sharedBuckets() {
        let buckets = SharedTokenBuckets(burst: 2, ratePerSecond: 1, pruneThreshold: 10)
        #expect(buckets.take("game-1", now: start))
        #expect(buckets.take("game-1", now: start))
        #expect(!buckets.take("game-1", now: start))
        #expect(buckets.take("game-2", now: start))
        #expect(buckets.take("game-1", now: start + .seconds(1)))
        // One new key a second: each older bucket has refilled (2 tokens at 1 a second) by then and is dropped.
        for index in 0..<20 { _ = buckets.take("address-\(index)", now: start + .seconds(10 + index)) }
        #expect(buckets.count <= 10)
        #expect(buckets.limitDescription == "2 at once, then 1 a second")
    }
}
