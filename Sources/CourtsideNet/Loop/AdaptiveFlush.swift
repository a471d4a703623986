/// When a broadcast frame leaves a subscriber's connection: at once, or gathered with the frames queued behind it.
/// One per loop (in its `LoopContext`), a value type that takes the loop's events and returns decisions; the
/// connection and the loop perform them.
///
/// **Why.** What a delivery costs on this kernel is per TCP segment, not per system call: two frames in one
/// `writev` cost about half of two `send`s (docs/benchmarks.md, "Batched writes"). Holding every frame for the
/// next would buy that at a message interval of latency. So:
/// - **Idle loop: at once.** The first fan-out pass of a loop iteration writes each frame as it is offered, to
///   every subscriber with nothing queued ahead of it (no second walk over the subscribers at the end of the
///   iteration). Every `lookInterval` such writes the loop looks, without blocking, for input waiting in the
///   kernel (a publisher's next message, a task from another loop).
/// - **Busy loop: gathered.** Once input is found waiting, or once one pass has gone out at once in this
///   iteration, the remaining frames are queued and leave at the end of the iteration, one `writev` per
///   connection (at most `LoopContext.maxIOVecs` frames per call). When input was found waiting, the queued frames
///   are held one more iteration, so the message waiting behind them is read and queued beside them: the
///   subscribers not yet served get both in one segment, and the loop catches up instead of falling further
///   behind.
///
/// **Bounds.** A frame is held at most one iteration: an iteration that starts with held frames gathers
/// everything and never holds again (and it starts at once: the loop does not wait in `epoll_wait` while frames
/// are queued). Queued frames stay under each connection's byte budget, checked where they are offered. A frame
/// goes out at once only onto an empty queue of an open plain connection, so order on each connection holds.
struct AdaptiveFlush {
    /// What to do with one broadcast frame offered to one connection.
    enum Decision: Equatable {
        /// Write it now.
        case sendNow
        /// Write it now, then look for input waiting (`lookedForInput(waiting:)`).
        case sendNowThenLookForInput
        /// Queue it for the end-of-iteration flush.
        case queue
    }

    private enum Mode: Equatable {
        case immediate
        case gathering
    }

    /// Writes at once between two looks for waiting input: one `poll(2)` of the epoll descriptor per 256 sends is
    /// well under 1% of the system calls of a fan-out, and a fan-out pass notices a waiting message within 256
    /// subscribers (about half a millisecond of sends).
    static let defaultLookInterval = 256

    let lookInterval: Int
    private var mode = Mode.immediate
    private var sendsSinceLook = 0
    /// A look during this iteration found input waiting: the frames queued since may be held one iteration.
    private var inputFoundWaiting = false
    /// The last iteration ended holding its queued frames.
    private(set) var isHolding = false

    init(lookInterval: Int = Self.defaultLookInterval) {
        precondition(lookInterval > 0, "Invalid state: a look interval must be positive")
        self.lookInterval = lookInterval
    }

    /// A loop iteration begins (after `epoll_wait`): frames go out at once, unless the last iteration held its
    /// frames (the loop is behind: gather everything this time).
    mutating func iterationBegan() {
        mode = isHolding ? .gathering : .immediate
        sendsSinceLook = 0
        inputFoundWaiting = false
    }

    /// A frame is offered to a connection; `connectionIdle`: open, plain, nothing queued, not pushed back.
    mutating func frameOffered(connectionIdle: Bool) -> Decision {
        guard mode == .immediate, connectionIdle else { return .queue }
        sendsSinceLook += 1
        guard sendsSinceLook >= lookInterval else { return .sendNow }
        sendsSinceLook = 0
        return .sendNowThenLookForInput
    }

    /// What the look asked for by `.sendNowThenLookForInput` found.
    mutating func lookedForInput(waiting: Bool) {
        guard waiting else { return }
        mode = .gathering
        inputFoundWaiting = true
    }

    /// A fan-out pass over one channel's subscribers ended: another message in the same iteration (several in one
    /// read, or several tasks) is gathered with this one rather than sent again per subscriber.
    mutating func fanOutEnded() {
        mode = .gathering
    }

    /// The iteration ends with connections queued (`hasQueued`): true to hold them one more iteration (input was
    /// found waiting behind them, and the last iteration did not hold), false to flush now.
    mutating func shouldHoldFlush(hasQueued: Bool) -> Bool {
        isHolding = hasQueued && inputFoundWaiting && !isHolding
        return isHolding
    }
}
