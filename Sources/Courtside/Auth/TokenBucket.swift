/// A token bucket for one connection's commands (ISSUE5 §5): `burst` commands at once, then `ratePerSecond`
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

    /// Takes one token if there is one; false means the command is over the limit.
    mutating func take(now: ContinuousClock.Instant) -> Bool {
        if now > last {
            let elapsed = now - last
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(burst, tokens + seconds * ratePerSecond)
            last = now
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
