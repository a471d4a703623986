import Synchronization

/// Counts failed authentications per client address and target (`AuthenticationTarget`: the admin token, or one
/// game's scorer token), and makes an address that keeps sending wrong tokens for a target wait.
///
/// It is consulted only after a token has been found wrong (`ApplicationCore.authenticate`): a right token always
/// works, so a spectator behind the venue's NAT who mistypes, or anybody who guesses, can never lock the scorers
/// out. Guessing is not what this defends against (a token has 128 bits or more); it keeps a misbehaving client's
/// refusals cheap and visible: the first `freeFailures` wrong tokens are answered 403, each one after that starts a
/// wait (2 s, then twice as long each time, at most `maximumPenalty`) during which further wrong tokens for the
/// same target are answered 429 with `Retry-After` without being counted or logged again. A success clears its own
/// target's failures only, never another's; failures older than `forgetAfter` are forgotten.
///
/// Time is passed in (`now`), so the schedule is tested without waiting. Memory: an `LRUTable` of at most
/// `capacity` (address, target) entries; forgotten entries leave from its old end as new ones come, and when every
/// entry is recent the least recently failing ones are dropped a batch at a time (an attacker with many addresses
/// only makes its own entries be forgotten sooner).
final class AuthenticationThrottle: Sendable {
    /// Failures allowed before any wait.
    let freeFailures: Int
    /// The longest wait: a minute keeps a misbehaving client to about a try a minute while a scorer who mistyped
    /// can still get in at once with the right token.
    let maximumPenalty: Duration
    /// Failures this old no longer count.
    let forgetAfter: Duration
    /// (address, target) entries held at most.
    let capacity: Int

    struct Key: Hashable {
        let address: String
        let target: AuthenticationTarget
    }

    private struct Entry {
        var failures: Int
        var lastFailure: ContinuousClock.Instant
        var blockedUntil: ContinuousClock.Instant?
    }
    private let entries: Mutex<LRUTable<Key, Entry>>

    init(
        freeFailures: Int = 5, maximumPenalty: Duration = .seconds(60), forgetAfter: Duration = .seconds(600),
        capacity: Int = 4_096
    ) {
        self.freeFailures = freeFailures
        self.maximumPenalty = maximumPenalty
        self.forgetAfter = forgetAfter
        self.capacity = capacity
        entries = Mutex(LRUTable(capacity: capacity))
    }

    /// How long `address` must still wait at `now` before a wrong token for `target` counts again; nil when none.
    func wait(for address: String, target: AuthenticationTarget, now: ContinuousClock.Instant) -> Duration? {
        entries.withLock { entries in
            guard let until = entries.peek(Key(address: address, target: target))?.blockedUntil, until > now else {
                return nil
            }
            return until - now
        }
    }

    /// Records a wrong token from `address` for `target` at `now`; returns the wait it starts (nil: none yet).
    @discardableResult
    func recordFailure(
        of address: String, target: AuthenticationTarget, now: ContinuousClock.Instant
    ) -> Duration? {
        entries.withLock { entries in
            // Entries are ordered by their last failure, so the forgotten ones are at the old end.
            entries.removeOldest { isForgotten($0, now: now) }
            return entries.update(
                Key(address: address, target: target),
                make: { Entry(failures: 0, lastFailure: now, blockedUntil: nil) }
            ) { entry in
                if isForgotten(entry, now: now) { entry = Entry(failures: 0, lastFailure: now, blockedUntil: nil) }
                entry.failures += 1
                entry.lastFailure = now
                let penalty = penalty(afterFailures: entry.failures)
                entry.blockedUntil = penalty.map { now + $0 }
                return penalty
            }
        }
    }

    /// A right token from `address` for `target`: that target's failures start over (no other target's).
    func recordSuccess(of address: String, target: AuthenticationTarget) {
        entries.withLock { $0.remove(Key(address: address, target: target)) }
    }

    /// The wait after `failures` failures: none for the free ones, then 2 s doubling up to `maximumPenalty`.
    func penalty(afterFailures failures: Int) -> Duration? {
        let over = failures - freeFailures
        guard over > 0 else { return nil }
        guard over <= 20 else { return maximumPenalty }
        return min(.seconds(Int64(1) << over), maximumPenalty)
    }

    /// Entries held (tests: the table stays bounded).
    var count: Int { entries.withLock { $0.count } }

    /// Entries visited so far (tests: the cost per failure stays constant).
    var steps: Int { entries.withLock { $0.steps } }

    private func isForgotten(_ entry: Entry, now: ContinuousClock.Instant) -> Bool {
        (entry.blockedUntil.map { $0 <= now } ?? true) && now - entry.lastFailure >= forgetAfter
    }
}
