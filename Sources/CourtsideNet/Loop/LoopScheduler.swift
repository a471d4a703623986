/// The loop a loop-confined object runs on, as much of it as the object needs: the time, tasks handed to it from
/// other threads, and timers. The owner of a game takes one, so a test drives its time and its journal completions
/// by hand (`ManualScheduler` in the test support target, in the spirit of SwiftNIO's `EmbeddedEventLoop` and
/// Hummingbird's mock clock) instead of sleeping; the server gives it `EventLoopScheduler`, the event loop itself.
///
/// `now` and the timers are used on the loop only; `execute` is the one call allowed from any thread.
public protocol LoopScheduler: AnyObject, Sendable {
    /// The monotonic time (on the loop: read once per iteration, as `LoopContext.now`).
    var now: ContinuousClock.Instant { get }
    /// Runs `body` on the loop, after every task submitted before it from the same thread. Any thread.
    func execute(_ body: @escaping @Sendable () -> Void)
    /// Runs `body` on the loop at `deadline` (or at the first chance after it); cancel it with the id.
    @discardableResult
    func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) -> TimerID
    /// Cancels a timer; one that fired or was cancelled already is ignored.
    func cancel(_ id: TimerID)
}

extension LoopScheduler {
    /// Runs `body` on the loop after `delay`.
    @discardableResult
    public func schedule(after delay: Duration, _ body: @escaping () -> Void) -> TimerID {
        schedule(at: now + delay, body)
    }
}

extension TimerID {
    /// The id numbered `number` (from 1), for schedulers other than the loop's timer heap.
    public init(number: UInt64) {
        precondition(number > 0, "Invalid state: timer ids count from 1")
        self.init(raw: number)
    }
}

/// The event loop as a `LoopScheduler`: its iteration's `now`, its task queue and its timer heap.
///
/// `@unchecked Sendable`: `execute` only hands the task to the loop's queue (thread-safe); everything else asserts
/// that it runs on the loop, where the context lives (the confinement of `LoopContext`).
public final class EventLoopScheduler: LoopScheduler, @unchecked Sendable {
    public let loop: EventLoop
    private let context: LoopContext

    /// Made on the loop whose context is `context`.
    public init(context: LoopContext) {
        self.loop = context.loop
        self.context = context
    }

    public var now: ContinuousClock.Instant {
        loop.assertInEventLoop()
        return context.now
    }

    public func execute(_ body: @escaping @Sendable () -> Void) {
        loop.execute { _ in body() }
    }

    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) -> TimerID {
        context.scheduleTimer(at: deadline) { _ in body() }
    }

    public func cancel(_ id: TimerID) {
        context.cancelTimer(id)
    }
}

extension EventLoop {
    /// The loop as a `LoopScheduler`, for an object made off the loop (at start-up) whose timers run on it. Blocks
    /// until the loop has made it: never call it on a loop thread (the loop would wait for itself).
    public func makeScheduler() -> EventLoopScheduler {
        precondition(!inEventLoop, "Invalid state: makeScheduler() waits for the loop, so it cannot run on it")
        let made = LockedValue<EventLoopScheduler?>(nil)
        let done = Semaphore()
        execute { context in
            made.withLock { $0 = EventLoopScheduler(context: context) }
            done.post()
        }
        done.wait()
        // The task stores the scheduler before it posts, so after the wait it is there.
        guard let scheduler = made.withLock({ $0 }) else {
            preconditionFailure("Invalid state: the loop made no scheduler")
        }
        return scheduler
    }
}
