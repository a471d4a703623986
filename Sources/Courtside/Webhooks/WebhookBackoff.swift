/// When a failed delivery is tried again: exponential backoff with jitter, from `initialDelay` doubling up to
/// `maxDelay`, each wait drawn uniformly from its upper half (so receivers that failed together do not come back
/// together, yet a wait never collapses to nothing). Once failures have lasted `giveUpAfter` (24 h: a receiver
/// down for a day still gets everything), the webhook is marked failing and waits for an administrator.
///
/// A value type with the clock and the random source passed in, so tests drive it without sleeping.
struct WebhookBackoff: Sendable, Hashable {
    /// The first retry's wait (before jitter).
    var initialDelayMs: Int64 = 500
    /// The longest wait between two attempts.
    var maxDelayMs: Int64 = 10 * 60 * 1000
    /// How long failures may last before the webhook is marked failing.
    var giveUpAfterMs: Int64 = 24 * 60 * 60 * 1000

    /// Failures in a row so far.
    private(set) var failures = 0
    /// When the first of them happened (Unix ms), nil when the last attempt succeeded.
    private(set) var failingSinceMs: Int64?

    /// What to do after a failed attempt.
    enum Decision: Sendable, Hashable {
        /// Try again at this instant (Unix ms).
        case retry(atMs: Int64)
        /// Stop: failures have lasted longer than `giveUpAfterMs`.
        case giveUp
    }

    /// Records a failure at `nowMs` and decides when to try again; `random` draws the jitter.
    mutating func failed<Random: RandomNumberGenerator>(nowMs: Int64, random: inout Random) -> Decision {
        failures += 1
        let since = failingSinceMs ?? nowMs
        failingSinceMs = since
        if nowMs - since >= giveUpAfterMs { return .giveUp }
        let exponent = min(failures - 1, 40)
        let ceiling = min(initialDelayMs.multipliedReportingOverflow(by: 1 << exponent).partialValue, maxDelayMs)
        let delay = ceiling <= 1 ? ceiling : Int64.random(in: (ceiling / 2)...ceiling, using: &random)
        // The last retry lands at the deadline at the latest, so the decision to give up is made on time.
        return .retry(atMs: min(nowMs + delay, since + giveUpAfterMs))
    }

    /// Records a success: the next failure starts from the first delay again.
    mutating func succeeded() {
        failures = 0
        failingSinceMs = nil
    }
}
