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
/// **Pipelined.** The flush after a hold sends the held connections first, without looking, and only then looks
/// again among the connections it reaches after them: when messages keep arriving about as fast as a flush reaches
/// everybody (a fan-out that takes most of the interval between two messages), each flush carries two frames to
/// the connections the last one held and may hold the ones it reaches last, so most connections send two frames
/// per `writev` every other message and the loop spends about half as much per frame, instead of a gathered flush
/// every other flush and one frame per `writev` in between.
///
/// **Bounds.** A connection is held at most one iteration in a row: what a hold left pending is flushed before the
/// next flush looks, so no frame waits behind two holds (and the loop does not wait in `epoll_wait` while
/// connections are held). Held frames stay under each connection's byte budget, which is checked where they are
/// queued; a hold changes when bytes go out, never their order on a connection.
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
    /// Connections at the head of this flush that the last one held (or left pending when it held): flushed
    /// before the next look, so none is held twice in a row.
    private var heldFirst = 0
    /// How many connections the last flush left pending when it held them; zero once a flush reached everybody.
    private var heldByLastFlush = 0

    /// The last flush held connections.
    var isHolding: Bool { heldByLastFlush > 0 }

    init(lookInterval: Int = Self.defaultLookInterval) {
        precondition(lookInterval > 0, "Invalid state: a look interval must be positive")
        self.lookInterval = lookInterval
    }

    /// An end-of-iteration flush begins.
    mutating func flushBegan() {
        flushedSinceLook = 0
        heldFirst = heldByLastFlush
        heldByLastFlush = 0
    }

    /// One connection was flushed and more wait.
    mutating func connectionFlushed() -> Step {
        // What the last flush held goes first, with no look: nothing is held twice in a row.
        if heldFirst > 0 {
            heldFirst -= 1
            return .flushNext
        }
        flushedSinceLook += 1
        guard flushedSinceLook >= lookInterval else { return .flushNext }
        flushedSinceLook = 0
        return .lookForInput
    }

    /// What the look found, and how many connections the flush would leave pending (those not reached yet, and any
    /// scheduled during the flush); true: hold them until the next iteration.
    mutating func lookedForInput(waiting: Bool, pending: Int) -> Bool {
        precondition(pending > 0, "Invalid state: a look with nothing left to flush")
        if waiting { heldByLastFlush = pending }
        return waiting
    }

    /// The flush reached every connection.
    mutating func flushCompleted() {
        heldByLastFlush = 0
        heldFirst = 0
    }
}
