import CourtsideRandom

/// Delays between reconnection attempts: capped exponential growth with "equal jitter" (each delay is drawn
/// between half and all of the exponential step), so that many clients that lost one server do not come back in
/// lockstep, while none retries sooner than half its step. The random source is a seeded value inside, so a test
/// gets the same delays every run.
public struct RedisBackoff: Sendable, Hashable {
    /// The first step. 50 ms: a restarted Redis on the same host is usually back within a few steps.
    public var initial: Duration
    /// The cap. 2 s: while Redis is down, a client still notices its return within two seconds.
    public var maximum: Duration
    private var random: SplitMix64

    public init(initial: Duration = .milliseconds(50), maximum: Duration = .seconds(2), seed: UInt64 = 0x5EED) {
        self.initial = initial
        self.maximum = maximum
        self.random = SplitMix64(seed: seed)
    }

    /// The delay before attempt `attempt` (1 for the first retry after a failure).
    public mutating func delay(attempt: Int) -> Duration {
        var step = initial
        for _ in 1..<max(1, min(attempt, 32)) where step < maximum {
            step = step * 2
        }
        step = min(step, maximum)
        let fraction = Double(random.next() >> 11) / Double(1 << 53)  // [0, 1)
        return step / 2 + (step / 2) * fraction
    }
}
