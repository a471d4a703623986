/// A token bucket for one connection's commands (docs/server.md): `burst` commands at once, then `ratePerSecond`
/// sustained. A value type with time passed in, so it is tested without sleeping.
struct TokenBucket {
    let burst: Double
    let ratePerSecond: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant

    init(burst: Int, ratePerSecond: Double, now: ContinuousClock.Instant) {
        self.burst = Double(max(burst, 1))
        self.ratePerSecond = max(ratePerSecond, 0)
        self.tokens = self.burst
        self.last = now
    }

    /// Whether the bucket has refilled to its burst by `now` (then it is the same as a new one).
    func isFull(now: ContinuousClock.Instant) -> Bool {
        tokens(at: now) >= burst
    }

    /// Takes one token if there is one; false means the command is over the limit.
    mutating func take(now: ContinuousClock.Instant) -> Bool {
        if now > last {
            tokens = tokens(at: now)
            last = now
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// The tokens there will be at `now` (a time before the last take refills nothing).
    private func tokens(at now: ContinuousClock.Instant) -> Double {
        guard now > last else { return tokens }
        let elapsed = now - last
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return min(burst, tokens + seconds * ratePerSecond)
    }
}
