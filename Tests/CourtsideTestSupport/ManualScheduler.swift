import CourtsideNet
import Synchronization

/// A `LoopScheduler` a test drives by hand (SwiftNIO's `EmbeddedEventLoop`, Hummingbird's mock clock): time stands
/// still until `advance(by:)`, which runs the timers due in deadline order; tasks handed in by `execute` (from any
/// thread: a journal's completion) wait until `run()` or `advance(by:)`. So a test sees time pass, and proves that
/// nothing happens, without waiting on the wall clock.
///
/// `@unchecked Sendable`: `execute` queues under a lock; everything else is for the test's own thread, which plays
/// the loop.
public final class ManualScheduler: LoopScheduler, @unchecked Sendable {
    private struct Timer {
        let id: TimerID
        let number: UInt64
        let deadline: ContinuousClock.Instant
        let body: () -> Void
    }

    public private(set) var now: ContinuousClock.Instant
    private let tasks = Mutex<[@Sendable () -> Void]>([])
    private var timers: [Timer] = []
    private var nextNumber: UInt64 = 0

    public init(now: ContinuousClock.Instant = .now) {
        self.now = now
    }

    public func execute(_ body: @escaping @Sendable () -> Void) {
        tasks.withLock { $0.append(body) }
    }

    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) -> TimerID {
        nextNumber += 1
        let id = TimerID(number: nextNumber)
        timers.append(Timer(id: id, number: nextNumber, deadline: deadline, body: body))
        return id
    }

    public func cancel(_ id: TimerID) {
        timers.removeAll { $0.id == id }
    }

    /// Timers armed and not yet fired or cancelled.
    public var scheduledTimerCount: Int { timers.count }

    /// The earliest armed timer's deadline, nil when none is armed.
    public var nextDeadline: ContinuousClock.Instant? { timers.map(\.deadline).min() }

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
        while let next = timers.filter({ $0.deadline <= end }).min(by: Self.earlier) {
            timers.removeAll { $0.id == next.id }
            now = max(now, next.deadline)
            next.body()
            run()
        }
        now = end
    }

    private static func earlier(_ a: Timer, _ b: Timer) -> Bool {
        (a.deadline, a.number) < (b.deadline, b.number)
    }
}
