/// Whether the shared store (Redis) is reachable, as `/healthz` reports it (docs/redis.md, "Redis unreachable"): a
/// value type fed the outcome of each probe, asked with the current instant. Unreachable once no probe has
/// succeeded for `threshold` (2 s), whether the probes fail at once (Redis killed: connection refused) or never
/// answer (a partition that drops packets: they time out later), so a load balancer drains the node within the
/// threshold plus one probe interval; reachable again at the first success.
struct StoreReachability {
    let threshold: Duration
    private(set) var lastSuccess: ContinuousClock.Instant
    /// Whether a probe is out and not yet answered (one at a time: a slow store is not flooded with probes).
    private(set) var probing = false

    /// Reachable as of `start` (the node just connected to it).
    init(threshold: Duration = .seconds(2), start: ContinuousClock.Instant) {
        self.threshold = threshold
        lastSuccess = start
    }

    /// The probe timer fired: whether to send a probe now.
    mutating func timerFired() -> Bool {
        guard !probing else { return false }
        probing = true
        return true
    }

    mutating func probeAnswered(success: Bool, at instant: ContinuousClock.Instant) {
        probing = false
        if success { lastSuccess = max(lastSuccess, instant) }
    }

    /// How long the store has been unreachable at `now`, nil while it counts as reachable.
    func unreachableFor(at now: ContinuousClock.Instant) -> Duration? {
        let silent = now - lastSuccess
        return silent >= threshold ? silent : nil
    }
}
