/// Whether this node holds a lease in the shared store (the demo runner's: one node plays the demo), as a value type
/// fed the answers of the periodic take-or-renew and asked at each timer (docs/redis.md, "The demo lease").
///
/// The node counts the lease as its own until `sentAt + duration` of the last successful answer: measured from when
/// the request left, so it never believes it holds the lease after Redis let it lapse. When a renewal is refused
/// (another node holds it) or no renewal succeeded before that instant (Redis unreachable), it stops; another node
/// takes the lease once it lapses in Redis.
struct DemoLease {
    enum Action: Equatable {
        case none
        /// The node now holds the lease: start the demo.
        case start
        /// The node no longer holds it: stop the demo.
        case stop
    }

    let duration: Duration
    private(set) var heldUntil: ContinuousClock.Instant?

    init(duration: Duration) {
        self.duration = duration
    }

    var isHeld: Bool { heldUntil != nil }

    /// The store answered the take-or-renew sent at `sentAt`.
    mutating func answered(held: Bool, sentAt: ContinuousClock.Instant) -> Action {
        let wasHeld = isHeld
        heldUntil = held ? sentAt + duration : nil
        switch (wasHeld, held) {
        case (false, true): return .start
        case (true, false): return .stop
        default: return .none
        }
    }

    /// A take-or-renew failed, or the timer fired, at `now`: a lease past its end is no longer held.
    mutating func check(at now: ContinuousClock.Instant) -> Action {
        guard let heldUntil, now >= heldUntil else { return .none }
        self.heldUntil = nil
        return .stop
    }
}
