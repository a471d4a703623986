import Synchronization

/// Token buckets by key, shared by every loop (ISSUE5 §5, issue 11): the command rate of one scorer token (keyed
/// by its game, whose one token it is) whichever socket and however many reconnects carry it, and the rate of
/// `POST …/commands` per client address. A bucket lives outside any connection, so closing and reopening a socket
/// does not refill it.
///
/// Memory is bounded: a bucket that has refilled to its burst is the same as no bucket, so once the table holds
/// `pruneThreshold` keys, full ones are dropped. What remains are keys active within the last `burst / rate`
/// seconds (2 s at the defaults).
final class SharedTokenBuckets: Sendable {
    let burst: Int
    let ratePerSecond: Double
    /// Keys kept before full buckets are pruned.
    let pruneThreshold: Int
    private let buckets = Mutex<[String: TokenBucket]>([:])

    init(burst: Int, ratePerSecond: Double, pruneThreshold: Int = 4_096) {
        self.burst = burst
        self.ratePerSecond = ratePerSecond
        self.pruneThreshold = pruneThreshold
    }

    /// Takes one token from `key`'s bucket at `now`; false means over the limit (nothing taken).
    func take(_ key: String, now: ContinuousClock.Instant) -> Bool {
        buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= pruneThreshold {
                buckets = buckets.filter { !$0.value.isFull(now: now) }
            }
            var bucket = buckets[key] ?? TokenBucket(burst: burst, ratePerSecond: ratePerSecond, now: now)
            let taken = bucket.take(now: now)
            buckets[key] = bucket
            return taken
        }
    }

    /// Keys currently held (tests: the table stays bounded).
    var count: Int { buckets.withLock { $0.count } }

    /// What a refusal says the limit is.
    var limitDescription: String {
        "\(burst) at once, then \(ServeOption.numberDescription(ratePerSecond)) a second"
    }
}
