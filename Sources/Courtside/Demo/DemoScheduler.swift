import Dispatch

/// When the demo's next step runs. The server waits real time; tests inject a scheduler of their own, so a whole
/// game plays without waiting on timers that a busy machine stretches.
public protocol DemoScheduler: Sendable {
    /// Runs `work` once on `queue` (the runner's serial queue, which confines its steps), `seconds` from now.
    func schedule(after seconds: Double, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
}

/// Real time: what `courtside serve --demo` uses.
public struct WallClockDemoScheduler: DemoScheduler {
    public init() {}

    public func schedule(after seconds: Double, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + seconds, execute: work)
    }
}
