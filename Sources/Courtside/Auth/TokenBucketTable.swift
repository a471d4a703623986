import Synchronization

/// Token buckets by key, shared by every loop (docs/server.md, "Limits"): the command rate of one scorer token (keyed
/// by its game, whose one token it is) whichever socket and however many reconnects carry it, and the rate of
/// `POST …/commands` per client address. A bucket lives outside any connection, so closing and reopening a socket
/// does not refill it.
///
/// Memory is bounded by an `LRUTable` of at most `capacity` keys, ordered by their last take: a bucket that has
/// refilled to its burst is the same as no bucket, so full ones leave from the old end as new keys come (what
/// remains are keys active within the last `burst / rate` seconds, 2 s at the defaults); past the cap, the least
/// recently used keys are dropped a batch at a time (they start over with a full bucket, which only a client with
/// more than `capacity` addresses active at once can gain from). No request scans the table.
final class TokenBucketTable: Sendable {
    let burst: Int
    let ratePerSecond: Double
    /// Keys held at most.
    let capacity: Int
    private let buckets: Mutex<LRUTable<String, TokenBucket>>

    init(burst: Int, ratePerSecond: Double, capacity: Int = 4_096) {
        self.burst = burst
        self.ratePerSecond = ratePerSecond
        self.capacity = capacity
        buckets = Mutex(LRUTable(capacity: capacity))
    }

    /// Takes one token from `key`'s bucket at `now`; false means over the limit (nothing taken).
    func take(_ key: String, now: ContinuousClock.Instant) -> Bool {
        buckets.withLock { buckets in
            buckets.removeOldest { $0.isFull(now: now) }
            return buckets.update(
                key, make: { TokenBucket(burst: burst, ratePerSecond: ratePerSecond, now: now) },
                { $0.take(now: now) })
        }
    }

    /// Keys currently held (tests: the table stays bounded).
    var count: Int { buckets.withLock { $0.count } }

    /// Entries visited so far (tests: the cost per take stays constant).
    var steps: Int { buckets.withLock { $0.steps } }

    /// What a refusal says the limit is.
    var limitDescription: String {
        "\(burst) at once, then \(ServeOption.numberDescription(ratePerSecond)) a second"
    }
}
