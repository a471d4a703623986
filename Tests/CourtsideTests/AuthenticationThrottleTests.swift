import CourtsideModel
import Testing

@testable import Courtside

/// The pure parts of the authentication throttle and the rate limits, with time passed in: nothing here sleeps.
@Suite("Authentication throttle and the token bucket table")
struct AuthenticationThrottleTests {
    private let start = ContinuousClock.now
    private let admin = AuthenticationTarget.admin
    private let game = AuthenticationTarget.game(GameID("game-1"))

    @Test("five free failures, then a wait of 2 s doubling up to a minute")
    func schedule() {
        let throttle = AuthenticationThrottle()
        var now = start
        var waits: [Duration?] = []
        for _ in 0..<12 {
            // Each attempt comes once the previous wait is over, as an obedient client would.
            #expect(throttle.wait(for: "10.0.0.1", target: admin, now: now) == nil)
            let wait = throttle.recordFailure(of: "10.0.0.1", target: admin, now: now)
            waits.append(wait)
            now = now + (wait ?? .zero)
        }
        #expect(waits.prefix(5).allSatisfy { $0 == nil })
        #expect(Array(waits.dropFirst(5)) == [2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
    }

    @Test("the wait shrinks with time and ends; other addresses and other targets are not affected")
    func waiting() {
        let throttle = AuthenticationThrottle()
        for _ in 0..<6 { throttle.recordFailure(of: "10.0.0.1", target: admin, now: start) }
        #expect(throttle.wait(for: "10.0.0.1", target: admin, now: start) == .seconds(2))
        #expect(throttle.wait(for: "10.0.0.1", target: admin, now: start + .milliseconds(1500)) == .milliseconds(500))
        #expect(throttle.wait(for: "10.0.0.1", target: admin, now: start + .seconds(2)) == nil)
        #expect(throttle.wait(for: "10.0.0.2", target: admin, now: start) == nil)
        #expect(throttle.wait(for: "10.0.0.1", target: game, now: start) == nil)
    }

    @Test("a success starts its own target over, never another's; failures ten minutes old are forgotten")
    func forgetting() {
        let throttle = AuthenticationThrottle()
        for _ in 0..<6 { throttle.recordFailure(of: "a", target: admin, now: start) }
        for _ in 0..<5 { throttle.recordFailure(of: "a", target: game, now: start) }
        throttle.recordSuccess(of: "a", target: game)
        #expect(throttle.recordFailure(of: "a", target: game, now: start) == nil, "the game's failures start over")
        #expect(throttle.wait(for: "a", target: admin, now: start) == .seconds(2), "the admin failures remain")
        for _ in 0..<5 { throttle.recordFailure(of: "b", target: admin, now: start) }
        #expect(throttle.recordFailure(of: "b", target: admin, now: start + .seconds(600)) == nil)
    }

    @Test("forgotten entries leave as new ones come; past the cap the oldest go a batch at a time")
    func bounded() {
        let throttle = AuthenticationThrottle(capacity: 100)
        for index in 0..<100 { throttle.recordFailure(of: "old-\(index)", target: admin, now: start) }
        for index in 0..<50 {
            throttle.recordFailure(of: "new-\(index)", target: admin, now: start + .seconds(700))
        }
        #expect(throttle.count == 50)
        for index in 0..<200 { throttle.recordFailure(of: "recent-\(index)", target: game, now: start + .seconds(701)) }
        #expect(throttle.count <= 100)
        #expect(throttle.wait(for: "recent-199", target: game, now: start + .seconds(701)) == nil)
        #expect(throttle.count > 100 - 100 / 8 - 1, "a batch, not the whole table, was dropped")
    }

    @Test("10,000 IPv4 and 10,000 IPv6 addresses: the throttle and the buckets stay at their cap, at constant cost")
    func manyAddresses() {
        let addresses =
            (0..<10_000).map { "10.\($0 >> 16 & 255).\($0 >> 8 & 255).\($0 & 255)" }
            + (0..<10_000).map { "2001:db8::\(String($0, radix: 16))" }
        let throttle = AuthenticationThrottle(capacity: 4_096)
        let buckets = TokenBucketTable(burst: 3, ratePerSecond: 1.0 / 60, capacity: 4_096)
        var largest = (throttle: 0, buckets: 0)
        for (index, address) in addresses.enumerated() {
            // Every address fails and takes within the same second: nothing is forgotten or refilled, so only the
            // cap bounds the tables.
            let now = start + .milliseconds(index / 100)
            throttle.recordFailure(of: address, target: admin, now: now)
            _ = buckets.take(address, now: now)
            largest = (max(largest.throttle, throttle.count), max(largest.buckets, buckets.count))
        }
        #expect(largest.throttle <= 4_096)
        #expect(largest.buckets <= 4_096)
        // Each new address costs its own insertion and, once the table is full, at most one eviction: a scan per
        // new address would visit thousands of entries each.
        #expect(throttle.steps <= 2 * addresses.count, "\(throttle.steps) entries visited")
        #expect(buckets.steps <= 2 * addresses.count, "\(buckets.steps) entries visited")
    }

    @Test("long-lived connections per address: an address leaves the table with its last connection")
    func connectionLimiter() {
        let limiter = ConnectionLimiter(limit: 2)
        let addresses = (0..<10_000).map { "2001:db8::\(String($0, radix: 16))" }
        for address in addresses { #expect(limiter.acquire(address)) }
        #expect(limiter.count == 10_000)
        for address in addresses { limiter.release(address) }
        #expect(limiter.count == 0)
    }

    @Test("shared buckets: one key's burst does not spend another's; full buckets are pruned")
    func sharedBuckets() {
        let buckets = TokenBucketTable(burst: 2, ratePerSecond: 1, capacity: 10)
        #expect(buckets.take("game-1", now: start))
        #expect(buckets.take("game-1", now: start))
        #expect(!buckets.take("game-1", now: start))
        #expect(buckets.take("game-2", now: start))
        #expect(buckets.take("game-1", now: start + .seconds(1)))
        // One new key a second: each older bucket has refilled (2 tokens at 1 a second) by then and is dropped.
        for index in 0..<20 { _ = buckets.take("address-\(index)", now: start + .seconds(10 + index)) }
        #expect(buckets.count <= 2)
        #expect(buckets.limitDescription == "2 at once, then 1 a second")
    }
}
