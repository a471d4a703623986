import CLinux
import Glibc

/// The loop-confined state of one `EventLoop`: its fd table, timers, shared read buffer and per-loop objects.
///
/// Not `Sendable`: it is created on the loop thread and reached only through the parameter the loop passes to
/// tasks, timers and handlers. Everything hanging off it (connections, protocol handlers) is confined the same way.
public final class LoopContext {
    /// The loop that owns this context.
    public let loop: EventLoop
    /// The monotonic time read once at the start of the current loop iteration.
    public internal(set) var now: ContinuousClock.Instant

    /// Bytes read per `read(2)`: one buffer per loop rather than per connection, so an idle connection holds no
    /// read buffer at all (the target is under 1 KiB per idle plain connection). 64 KiB matches the default
    /// loopback socket buffer and lets one read carry a whole typical burst.
    static let readBufferSize = 64 * 1024
    /// writev entries per call; the kernel's limit (IOV_MAX, 1024) is larger than any useful batch.
    static let maxIOVecs = 64

    let readBuffer: UnsafeMutableRawBufferPointer
    let iovecs: UnsafeMutablePointer<iovec>
    private var fds = FDTable()
    private var timers = TimerHeap<(LoopContext) -> Void>()
    /// Connections with writes queued since the last flush; flushed at the end of each iteration so that many
    /// frames queued in one iteration go out in one `writev` (or one TLS record batch).
    private var pendingFlush: [Connection] = []
    /// The batch `flushPending` is working through (kept, with its capacity, between iterations).
    private var flushing: [Connection] = []
    /// Whether the end-of-iteration flush sends everything now or holds what it has not reached for the message
    /// waiting behind it.
    var adaptiveFlush = AdaptiveFlush()
    /// Per-loop objects owned by servers and applications, keyed by their owner's identity.
    private var attachments: [ObjectIdentifier: AnyObject] = [:]

    init(loop: EventLoop) {
        self.loop = loop
        now = LoopClock.now()
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        iovecs = .allocate(capacity: Self.maxIOVecs)
    }

    deinit {
        readBuffer.deallocate()
        iovecs.deallocate()
    }

    // MARK: timers

    /// Runs `callback` on this loop at `deadline` (or in the first iteration after it).
    @discardableResult
    public func scheduleTimer(at deadline: ContinuousClock.Instant, _ callback: @escaping (LoopContext) -> Void)
        -> TimerID
    {
        loop.assertInEventLoop()
        return timers.schedule(at: deadline, callback)
    }

    /// Runs `callback` on this loop after `delay`.
    @discardableResult
    public func scheduleTimer(after delay: Duration, _ callback: @escaping (LoopContext) -> Void) -> TimerID {
        scheduleTimer(at: now + delay, callback)
    }

    /// Cancels a timer; cancelling one that already fired or was cancelled does nothing.
    public func cancelTimer(_ id: TimerID) {
        loop.assertInEventLoop()
        timers.cancel(id)
    }

    /// Live timers (for tests and metrics).
    public var scheduledTimerCount: Int { timers.count }

    func pollTimeoutMilliseconds(hasTasks: Bool) -> Int32 {
        if hasTasks || !pendingFlush.isEmpty { return 0 }
        guard let deadline = timers.nextDeadline() else { return -1 }
        let current = LoopClock.now()
        if deadline <= current { return 0 }
        return Int32(clamping: (deadline - current).millisecondsRoundedUp)
    }

    func runDueTimers() {
        // Timers scheduled by a callback for "now" run next iteration, so a zero-delay re-arm cannot starve I/O.
        var budget = timers.count
        while budget > 0, let callback = timers.popDue(now: now) {
            budget -= 1
            callback(self)
        }
    }

    // MARK: attachments

    /// The per-loop object stored under `key`, creating it with `make` on first use.
    public func attachment<T: AnyObject>(for key: ObjectIdentifier, make: () -> T) -> T {
        if let existing = attachments[key] {
            guard let typed = existing as? T else { preconditionFailure("Invalid state: attachment type mismatch") }
            return typed
        }
        let created = make()
        attachments[key] = created
        return created
    }

    /// The per-loop object stored under `key`, if any.
    public func existingAttachment<T: AnyObject>(for key: ObjectIdentifier, as type: T.Type = T.self) -> T? {
        attachments[key] as? T
    }

    public func removeAttachment(for key: ObjectIdentifier) {
        attachments[key] = nil
    }

    // MARK: fd registration

    func register(fd: Int32, handler: any EventHandler, events: UInt32) throws(NetError) {
        loop.assertInEventLoop()
        let token = fds.insert(fd: fd, handler: handler)
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        if epoll_ctl(loop.epollFD, EPOLL_CTL_ADD, fd, &event) != 0 {
            let err = errno
            fds.remove(fd: fd)
            throw NetError.syscall("epoll_ctl(ADD)", errno: err)
        }
    }

    func modify(fd: Int32, events: UInt32) {
        guard let token = fds.token(for: fd) else { return }
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        // Only fails for an fd that is not registered, which `token(for:)` already excluded.
        _ = epoll_ctl(loop.epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Removes `fd` from epoll and the table; the caller closes it afterwards.
    func deregister(fd: Int32) {
        guard fds.token(for: fd) != nil else { return }
        _ = epoll_ctl(loop.epollFD, EPOLL_CTL_DEL, fd, nil)
        fds.remove(fd: fd)
    }

    var registeredCount: Int { fds.count }

    /// Calls `body` with every registered handler, in fd order: how a server finds its connections without a
    /// registry of its own. `body` must not register or deregister anything (collect, then act).
    func forEachRegisteredHandler(_ body: (any EventHandler) -> Void) {
        fds.forEachHandler(body)
    }

    func dispatch(token: UInt64, events: UInt32) {
        guard let handler = fds.handler(for: token) else { return }
        handler.handleEvents(events, context: self)
    }

    // MARK: flushing

    func scheduleFlush(_ connection: Connection) {
        pendingFlush.append(connection)
    }

    /// Whether input waits in the kernel for this loop (a readable socket, a task's wake-up): one `poll(2)` of the
    /// epoll descriptor, which is readable while its ready list holds an event, without taking any.
    func inputIsWaiting() -> Bool {
        var descriptor = pollfd(fd: loop.epollFD, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Called by the loop at the end of an iteration: flushes what is queued, unless input waits behind the flush,
    /// in which case the connections not reached yet are held one iteration (`AdaptiveFlush`): they stay scheduled,
    /// and the message waiting behind them is read and queued before they are flushed.
    func iterationEnded() {
        flush(mayHold: true)
    }

    /// Flushes everything queued, holding nothing (the loop's last flush, when it stops).
    func flushPending() {
        flush(mayHold: false)
    }

    /// Whether the last iteration held connections (tests).
    var isHoldingFlush: Bool { adaptiveFlush.isHolding }
    /// How many flushes held connections for the next iteration since the loop started (tests).
    private(set) var heldFlushCount = 0

    private func flush(mayHold: Bool) {
        adaptiveFlush.flushBegan()
        while !pendingFlush.isEmpty {
            // Swapped, not copied: a copy of a shared array would allocate and fill a new one of the same size
            // per iteration (10,000 entries for a fan-out to 10,000), and a flush may schedule more.
            swap(&pendingFlush, &flushing)
            var index = 0
            while index < flushing.count {
                flushing[index].performScheduledFlush()
                index += 1
                guard mayHold, index < flushing.count, adaptiveFlush.connectionFlushed() == .lookForInput else {
                    continue
                }
                // Whatever is scheduled during the flush is already in `pendingFlush`: if held, all of it goes
                // before the next flush looks again.
                let pending = pendingFlush.count + flushing.count - index
                if adaptiveFlush.lookedForInput(waiting: inputIsWaiting(), pending: pending) {
                    // Still scheduled (their flag is set): they go out first at the end of the next iteration.
                    pendingFlush.append(contentsOf: flushing[index...])
                    heldFlushCount += 1
                    flushing.removeAll(keepingCapacity: true)
                    return
                }
            }
            flushing.removeAll(keepingCapacity: true)
        }
        adaptiveFlush.flushCompleted()
    }

    /// Called when the loop exits: closes whatever is still registered and drops every timer and attachment.
    func tearDown() {
        for handler in fds.allHandlers {
            if let closable = handler as? any LoopClosable {
                closable.closeNow(context: self)
            }
        }
        timers.removeAll()
        attachments.removeAll()
        pendingFlush.removeAll()
        flushing.removeAll()
    }
}

/// A registered object that can be closed outright when its loop stops.
protocol LoopClosable: AnyObject {
    func closeNow(context: LoopContext)
}

@available(*, unavailable)
extension LoopContext: Sendable {}
