import CourtsideNet
import Synchronization

/// A `LoopScheduler` a test drives by hand (SwiftNIO's `EmbeddedEventLoop`, Hummingbird's mock clock): time stands
/// still until `advance(by:)`, which runs the timers due in deadline order; tasks handed in by `execute` (from any
/// thread: a journal's completion) wait until `run()` or `advance(by:)`. So a test sees time pass, and proves that
/// nothing happens, without waiting on the wall clock.
///
/// The thread that calls `run()` and `advance(by:)` plays the loop: the test's own, or, for sockets of a live
/// server, the server's loop (the test hands it the call with `EventLoop.execute`).
///
/// `@unchecked Sendable`: the time, the tasks and the timers are kept under a lock (a live server's loop arms
/// timers while the test reads them); the bodies run outside it, on the thread playing the loop.
public final class ManualScheduler: LoopScheduler, @unchecked Sendable {
    /// `@unchecked Sendable`: it crosses the lock, and its body is only ever run by the thread playing the loop.
    private struct Timer: @unchecked Sendable {
        let id: TimerID
        let number: UInt64
        let deadline: ContinuousClock.Instant
        let body: () -> Void
    }

    private struct State {
        var now: ContinuousClock.Instant
        var timers: [Timer] = []
        var nextNumber: UInt64 = 0
    }

    private let tasks = Mutex<[@Sendable () -> Void]>([])
    private let state: Mutex<State>

    public init(now: ContinuousClock.Instant = .now) {
        state = Mutex(State(now: now))
    }

    public var now: ContinuousClock.Instant { state.withLock { $0.now } }

    public func execute(_ body: @escaping @Sendable () -> Void) {
        tasks.withLock { $0.append(body) }
    }

    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) -> TimerID {
        return state.withLock { state in
            state.nextNumber += 1
            let id = TimerID(number: state.nextNumber)
            state.timers.append(Timer(id: id, number: state.nextNumber, deadline: deadline, body: body))
            return id
        }
    }

    public func cancel(_ id: TimerID) {
        state.withLock { $0.timers.removeAll { $0.id == id } }
    }

    /// Timers armed and not yet fired or cancelled.
    public var scheduledTimerCount: Int { state.withLock { $0.timers.count } }

    /// The earliest armed timer's deadline, nil when none is armed.
    public var nextDeadline: ContinuousClock.Instant? { state.withLock { $0.timers.map(\.deadline).min() } }

    /// Tasks handed in by `execute` and not yet run.
    public var queuedTaskCount: Int { tasks.withLock { $0.count } }

    /// Runs every task handed in, and those they hand in, in order; returns how many ran.
    @discardableResult
    public func run() -> Int {
        var count = 0
        while true {
            let batch = tasks.withLock { queued in
                defer { queued = [] }
                return queued
            }
            guard !batch.isEmpty else { return count }
            for task in batch { task() }
            count += batch.count
        }
    }

    /// Moves the time forward by `duration`: runs the queued tasks, then each timer due (earliest first, each
    /// followed by the tasks it caused) with `now` at its deadline, and leaves `now` at the end.
    public func advance(by duration: Duration) {
        let end = now + duration
        run()
        while let next = takeDue(by: end) {
            next.body()
            run()
        }
        state.withLock { $0.now = end }
    }

    /// The earliest timer due by `end`, taken off the list with `now` moved to its deadline.
    private func takeDue(by end: ContinuousClock.Instant) -> Timer? {
        state.withLock { state in
            guard let next = state.timers.filter({ $0.deadline <= end }).min(by: Self.earlier) else { return nil }
            state.timers.removeAll { $0.id == next.id }
            state.now = max(state.now, next.deadline)
            return next
        }
    }

    private static func earlier(_ a: Timer, _ b: Timer) -> Bool {
        (a.deadline, a.number) < (b.deadline, b.number)
    }
}
