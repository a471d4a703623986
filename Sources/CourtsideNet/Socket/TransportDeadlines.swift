/// The deadlines of the transport itself, as a value that takes events and returns actions (time injected, so tests
/// drive them as traces): the **write-progress deadline** (while the kernel pushes back, some queued byte must leave
/// within `writeTimeout`, whether the connection is open or closing, else it is reset) and the **close linger**
/// (after our FIN, wait `lingerTimeout` for the peer's). `Connection` owns one and one loop timer for both.
///
/// Not here: the protocol deadlines (request, keep-alive, pings, close handshake), which belong to the protocol
/// machines above the transport.
struct TransportDeadlines: Equatable {
    typealias Instant = ContinuousClock.Instant

    enum Action: Equatable {
        /// Arm the connection's timer at this instant (replacing an earlier one).
        case scheduleTimer(Instant)
        /// Reset the connection: no queued byte left for `writeTimeout`.
        case abortWriteTimedOut
        /// Close the connection: the linger is over.
        case close
    }

    let writeTimeout: Duration
    let lingerTimeout: Duration
    /// Since when queued bytes wait and none has left (nil while writes flow or nothing is queued).
    private(set) var stalledSince: Instant?
    /// When the linger ends (nil until the write side is shut down).
    private(set) var lingerDeadline: Instant?
    /// The instant the owner's timer is armed for, as far as we told it.
    private var scheduled: Instant?

    init(writeTimeout: Duration, lingerTimeout: Duration) {
        self.writeTimeout = writeTimeout
        self.lingerTimeout = lingerTimeout
    }

    /// When ``timerFired(now:)`` next has work to do.
    var nextDeadline: Instant? {
        switch (stalledSince.map { $0 + writeTimeout }, lingerDeadline) {
        case (let write?, let linger?): min(write, linger)
        case (let write?, nil): write
        case (nil, let linger?): linger
        case (nil, nil): nil
        }
    }

    /// A flush attempt finished: whether any byte left the queue, and whether the queue is now empty.
    mutating func flushed(progressed: Bool, drained: Bool, now: Instant) -> [Action] {
        if drained {
            stalledSince = nil
        } else if progressed || stalledSince == nil {
            stalledSince = now  // the wait for the peer starts (again) now
        }
        return timerActions()
    }

    /// Our write side was shut down (FIN sent): the linger starts.
    mutating func writeSideShutDown(now: Instant) -> [Action] {
        lingerDeadline = now + lingerTimeout
        return timerActions()
    }

    mutating func timerFired(now: Instant) -> [Action] {
        scheduled = nil  // the owner's timer is spent
        if let lingerDeadline, now >= lingerDeadline { return [.close] }
        if let stalledSince, now - stalledSince >= writeTimeout { return [.abortWriteTimedOut] }
        return timerActions()
    }

    /// Tells the owner about a deadline earlier than its timer's; a later one waits for that timer to fire and
    /// re-arm (progress on every write then costs no timer operation).
    private mutating func timerActions() -> [Action] {
        guard let next = nextDeadline else { return [] }
        if let scheduled, scheduled <= next { return [] }
        scheduled = next
        return [.scheduleTimer(next)]
    }
}
