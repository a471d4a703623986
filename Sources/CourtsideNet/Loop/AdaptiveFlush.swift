/// Whether the end-of-iteration flush sends everything queued now, or holds the connections it has not reached yet
/// for one iteration so the message waiting behind them leaves in the same `writev`. One per loop (in its
/// `LoopContext`), a value type that takes the flush's events and returns decisions; the loop performs them.
///
/// **Why.** What a delivery costs on this kernel is per TCP segment, not per system call: two frames in one
/// `writev` cost about half of two `send`s (docs/benchmarks.md, "Batched writes"). Holding every frame for the
/// next would buy that at a message interval of latency on an idle loop. So:
/// - **Idle loop: at once.** Everything queued in an iteration is flushed at its end, as it always was; a flush
///   walks its connections and, every `lookInterval` connections, looks without blocking for input waiting in the
///   kernel (a publisher's next message, a task from another loop). Nothing waiting: the walk goes on.
/// - **Busy loop: gathered.** Input waiting behind a flush means the next message is there before this one has
///   reached everybody. The connections not flushed yet are held for one iteration: the loop reads the waiting
///   input first, so its frames are queued behind the held ones, and each of those connections then sends both in
///   one `writev` (at most `LoopContext.maxIOVecs` chunks per call). The subscribers not yet served lose the time
///   it takes to read and queue the next message; the loop halves the cost of what it still owes and catches up
///   instead of falling further behind.
///
/// **Bounds.** Connections are held at most one iteration: the flush after a hold does not look and sends
/// everything, so no frame waits behind two holds (and the loop does not wait in `epoll_wait` while connections
/// are held). Held frames stay under each connection's byte budget, which is checked where they are queued; a
/// hold changes when bytes go out, never their order on a connection.
struct AdaptiveFlush {
    /// What the flush does after a connection, when more wait.
    enum Step: Equatable {
        /// Flush the next connection.
        case flushNext
        /// Look for input waiting first (`lookedForInput(waiting:)`).
        case lookForInput
    }

    /// Connections flushed between two looks for waiting input: one `poll(2)` of the epoll descriptor per 256
    /// connections is under 0.4% of the flush's system calls, and a flush notices a waiting message within 256
    /// connections (half a millisecond to a millisecond of sends). A loop that flushes fewer connections per iteration (an
    /// HTTP server's usual traffic) never looks.
    static let defaultLookInterval = 256

    let lookInterval: Int
    private var flushedSinceLook = 0
    /// The last flush held connections: the next one sends everything.
    private(set) var isHolding = false

    init(lookInterval: Int = Self.defaultLookInterval) {
        precondition(lookInterval > 0, "Invalid state: a look interval must be positive")
        self.lookInterval = lookInterval
    }

    /// An end-of-iteration flush begins.
    mutating func flushBegan() {
        flushedSinceLook = 0
    }

    /// One connection was flushed and more wait.
    mutating func connectionFlushed() -> Step {
        // After a hold, everything goes: no look, so nothing is held twice.
        guard !isHolding else { return .flushNext }
        flushedSinceLook += 1
        guard flushedSinceLook >= lookInterval else { return .flushNext }
        flushedSinceLook = 0
        return .lookForInput
    }

    /// What the look found; true: hold the connections not flushed yet until the next iteration.
    mutating func lookedForInput(waiting: Bool) -> Bool {
        if waiting { isHolding = true }
        return waiting
    }

    /// The flush reached every connection.
    mutating func flushCompleted() {
        isHolding = false
    }
}
