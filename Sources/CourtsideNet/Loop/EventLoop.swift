import CLinux
import Glibc
import Synchronization

/// One epoll instance driven by one thread.
///
/// **Threading.** `EventLoop` itself is `Sendable` (checked: only `let`s, a lock and atomics): any thread may
/// call `execute`, `executeSending` or `inEventLoop`. Everything else — connections, timers, the fd table, the
/// read buffer — lives in the loop's `LoopContext`, which is created on the loop thread, is not `Sendable`, and is
/// reached only through the parameter the loop passes to tasks and handlers. That is the whole confinement story:
/// no locks on the hot path, one lock (the task queue) at the boundary.
///
/// **Triggering.** Level-triggered. A readable connection gets one bounded read per iteration and epoll reports it
/// again if more is waiting, which gives fairness between connections without a private "still readable" list,
/// and TLS (which may hold decrypted bytes epoll cannot see) is drained explicitly by its layer. `EPOLLOUT` is
/// armed only while a write queue is blocked, so idle connections cost no wake-ups.
///
/// **Wake-ups.** An `eventfd`; a flag coalesces them so a burst of `execute` calls costs one `write(2)`.
public final class EventLoop: Sendable, CustomStringConvertible {
    /// The loop's position in its group (0-based); stable for the loop's life.
    public let index: Int
    let epollFD: Int32
    let wakeFD: Int32
    private let tasks = LockedValue<[UnsafeTransfer<(LoopContext) -> Void>]>([])
    private let wakePending = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    /// `pthread_self()` of the loop thread once it runs; 0 before.
    private let threadID = Atomic<UInt>(0)

    init(index: Int) throws(NetError) {
        self.index = index
        epollFD = try syscallRetryingEINTR("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do {
            wakeFD = try syscallRetryingEINTR("eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
        } catch {
            close(epollFD)
            throw error
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = FDTable.wakeToken
        if epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) != 0 {
            let err = errno
            close(wakeFD)
            close(epollFD)
            throw NetError.syscall("epoll_ctl(ADD eventfd)", errno: err)
        }
    }

    deinit {
        close(wakeFD)
        close(epollFD)
    }

    public var description: String { "EventLoop(\(index))" }

    /// Whether the calling thread is this loop's thread.
    public var inEventLoop: Bool {
        threadID.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Traps (in debug builds) when called off the loop thread: every loop-confined entry point calls this.
    @inline(__always)
    public func assertInEventLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(inEventLoop, "called off the loop thread of \(self)", file: file, line: line)
    }

    /// Runs `task` on the loop thread, soon, in submission order. Safe from any thread. Tasks submitted after the
    /// loop stopped are dropped without running.
    public func execute(_ task: @escaping @Sendable (LoopContext) -> Void) {
        enqueue(UnsafeTransfer(task))
    }

    /// Like `execute`, for a closure that captures non-Sendable state the caller gives up (`sending`).
    public func executeSending(_ task: sending @escaping (LoopContext) -> Void) {
        enqueue(UnsafeTransfer(task))
    }

    private func enqueue(_ box: UnsafeTransfer<(LoopContext) -> Void>) {
        tasks.withLock { $0.append(box) }
        wake()
    }

    func wake() {
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { write(wakeFD, $0.baseAddress, 8) }
        }
    }

    /// Asks the loop to leave `run` after the current iteration.
    func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
    }

    // MARK: running (loop thread only)

    /// Runs the loop on the calling thread until `requestStop`; `setup` runs first, on this thread.
    func run(maxEventsPerWait: Int = 256) {
        threadID.store(UInt(pthread_self()), ordering: .relaxed)
        let context = LoopContext(loop: self)
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: maxEventsPerWait)
        defer {
            events.deallocate()
            context.tearDown()
        }
        while !stopRequested.load(ordering: .acquiring) {
            let timeout = context.pollTimeoutMilliseconds(hasTasks: hasTasks)
            let count = epoll_wait(epollFD, events, Int32(maxEventsPerWait), timeout)
            context.now = LoopClock.now()
            if count < 0 {
                let err = errno
                if err == EINTR { continue }
                preconditionFailure("epoll_wait failed: errno \(err)")
            }
            for i in 0..<Int(count) {
                let event = events[i]
                if event.data.u64 == FDTable.wakeToken {
                    drainWakeFD()
                } else {
                    context.dispatch(token: event.data.u64, events: event.events)
                }
            }
            context.runDueTimers()
            runTasks(context)
            context.iterationEnded()
        }
        runTasks(context)
        context.flushPending()
    }

    private var hasTasks: Bool {
        tasks.withLock { !$0.isEmpty }
    }

    private func drainWakeFD() {
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { read(wakeFD, $0.baseAddress, 8) }
    }

    private func runTasks(_ context: LoopContext) {
        // Clear the flag before taking the tasks: a task enqueued after the take sees `false` and wakes us again.
        wakePending.store(false, ordering: .releasing)
        let batch = tasks.withLock { queue -> [UnsafeTransfer<(LoopContext) -> Void>] in
            let taken = queue
            queue.removeAll(keepingCapacity: true)
            return taken
        }
        for task in batch {
            task.value(context)
        }
    }
}
