import Synchronization

/// Slows guessing of the admin and scorer tokens per client address (issue 11).
///
/// Every failed authentication of an address is counted. The first `freeFailures` cost nothing (a person mistyping
/// a token); each one after that makes the address wait before its next attempt is even checked: 2 s, then twice as
/// long each time, at most `maximumPenalty`. An attempt during the wait is refused without looking at the token
/// (HTTP 429 with `Retry-After`, a scorer socket closed with 1008), and is not counted. A success clears the
/// address; failures older than `forgetAfter` are forgotten. Nothing sleeps or holds a connection: a guesser gets
/// at most a handful of tries a minute, and a slot per attempt is all it ever costs the server.
///
/// Time is passed in (`now`), so the schedule is tested without waiting. Memory: one small entry per address that
/// failed recently; entries whose wait is over and whose failures are forgotten are pruned once the table holds
/// `pruneThreshold` addresses.
final class AuthenticationThrottle: Sendable {
    /// Failures allowed before any wait.
    let freeFailures: Int
    /// The longest wait: a minute keeps a guesser to about a try a minute while a scorer who mistyped can still get
    /// in soon.
    let maximumPenalty: Duration
    /// Failures this old no longer count.
    let forgetAfter: Duration
    let pruneThreshold: Int

    private struct Entry {
        var failures: Int
        var lastFailure: ContinuousClock.Instant
        var blockedUntil: ContinuousClock.Instant?
    }
    private let entries = Mutex<[String: Entry]>([:])

    init(
        freeFailures: Int = 5, maximumPenalty: Duration = .seconds(60), forgetAfter: Duration = .seconds(600),
        pruneThreshold: Int = 4_096
    ) {
        self.freeFailures = freeFailures
        self.maximumPenalty = maximumPenalty
        self.forgetAfter = forgetAfter
        self.pruneThreshold = pruneThreshold
    }

    /// How long `address` must still wait before an attempt is checked at `now`; nil when it may try.
    func wait(for address: String, now: ContinuousClock.Instant) -> Duration? {
        entries.withLock { entries in
            guard let until = entries[address]?.blockedUntil, until > now else { return nil }
            return until - now
        }
    }

    /// Records a failed attempt of `address` at `now`; returns the wait it now has before its next one (nil: none).
    @discardableResult
    func recordFailure(of address: String, now: ContinuousClock.Instant) -> Duration? {
        entries.withLock { entries in
            if entries[address] == nil, entries.count >= pruneThreshold {
                entries = entries.filter { !isForgotten($0.value, now: now) }
            }
            var entry = entries[address] ?? Entry(failures: 0, lastFailure: now, blockedUntil: nil)
            if isForgotten(entry, now: now) { entry = Entry(failures: 0, lastFailure: now, blockedUntil: nil) }
            entry.failures += 1
            entry.lastFailure = now
            let penalty = penalty(afterFailures: entry.failures)
            entry.blockedUntil = penalty.map { now + $0 }
            entries[address] = entry
            return penalty
        }
    }

    /// A successful authentication: the address starts over.
    func recordSuccess(of address: String) {
        _ = entries.withLock { $0.removeValue(forKey: address) }
    }

    /// The wait after `failures` failures: none for the free ones, then 2 s doubling up to `maximumPenalty`.
    func penalty(afterFailures failures: Int) -> Duration? {
        let over = failures - freeFailures
        guard over > 0 else { return nil }
        guard over <= 20 else { return maximumPenalty }
        return min(.seconds(Int64(1) << over), maximumPenalty)
    }

    /// Addresses held (tests: the table stays bounded).
    var count: Int { entries.withLock { $0.count } }

    private func isForgotten(_ entry: Entry, now: ContinuousClock.Instant) -> Bool {
        (entry.blockedUntil.map { $0 <= now } ?? true) && now - entry.lastFailure >= forgetAfter
    }
}
