import CourtsideJournal
import CourtsideNet
import Synchronization

/// Pings the shared store every `interval` on one loop and keeps `StoreReachability` for `/healthz`. The ping goes
/// over the journal's own connection, so it measures the path the writes take.
final class StoreProbe: Sendable {
    private let state: Mutex<StoreReachability>
    private let journal: any SharedGameJournal
    private let interval: Duration
    private let stopped = Atomic<Bool>(false)

    init(journal: any SharedGameJournal, interval: Duration = .milliseconds(500), threshold: Duration = .seconds(2)) {
        self.journal = journal
        self.interval = interval
        state = Mutex(StoreReachability(threshold: threshold, start: .now))
    }

    /// Starts probing on `loop`.
    func start(on loop: EventLoop) {
        loop.execute { [self] context in schedule(context) }
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// How long the store has been unreachable, nil while it is reachable.
    var unreachableFor: Duration? {
        state.withLock { $0.unreachableFor(at: .now) }
    }

    private func schedule(_ context: LoopContext) {
        guard !stopped.load(ordering: .relaxed) else { return }
        _ = context.scheduleTimer(after: interval) { [self] context in
            if state.withLock({ $0.timerFired() }) {
                journal.ping { [self] success in
                    state.withLock { $0.probeAnswered(success: success, at: .now) }
                }
            }
            schedule(context)
        }
    }
}
