import CourtsideJournal
import CourtsideNet
import Synchronization

/// Sums spectators across the nodes sharing one Redis (shapes: "viewers summed across nodes"): every `interval` a
/// node publishes its per-game counts with an expiry of three intervals and reads every live node's, in one call
/// (`courtside_viewers`). The cost is one round trip per node per interval, whatever the number of spectators; the
/// totals are at most one interval old, and a dead node's counts vanish within three. Without Redis the per-node
/// count is the total (`ServerMetrics.totalViewers(of:)`).
final class ViewerCounts: Sendable {
    private let journal: any SharedGameJournal
    private let metrics: ServerMetrics
    private let interval: Duration
    private let stopped = Atomic<Bool>(false)

    init(journal: any SharedGameJournal, metrics: ServerMetrics, interval: Duration = .seconds(2)) {
        self.journal = journal
        self.metrics = metrics
        self.interval = interval
        metrics.clusterViewers.withLock { $0 = [:] }
    }

    func start(on loop: EventLoop) {
        loop.execute { [self] context in exchange(context) }
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func exchange(_ context: LoopContext) {
        guard !stopped.load(ordering: .relaxed) else { return }
        journal.exchangeViewerCounts(metrics.spectatorCounts, ttl: interval * 3) { [metrics] result in
            // A failed exchange keeps the last totals (Redis away: /healthz says so).
            if case .success(let totals) = result { metrics.clusterViewers.withLock { $0 = totals } }
        }
        _ = context.scheduleTimer(after: interval) { [self] context in exchange(context) }
    }
}
