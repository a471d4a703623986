import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// Counts a game's viewers and announces them, with two timers on the lobby's loop:
/// - announcing, every `viewerCountInterval`: the figures `ViewerAnnouncements` says are due go into the lobby rows
///   (`viewers`) and, as one `viewers` message encoded once, to each game's subscribers;
/// - exchanging, every `sharedViewerCountInterval` and only when nodes share a Redis: this node publishes its
///   per-game counts with an expiry of three intervals and reads every live node's in one call
///   (`courtside_viewers`). The cost is one round trip per node per interval, whatever the number of spectators; the
///   totals are at most one interval old, and a dead node's counts vanish within three.
///
/// Counts are the open spectator sockets and event streams the metrics keep per game (`ServerMetrics.viewerCounts`:
/// the cluster's sums when the exchange runs, this node's otherwise). Loop-confined; both timers end with the loop,
/// and the exchange also at the first turn after the server begins to stop (the journal closes next).
final class ViewerCounter {
    private let core: ApplicationCore
    private let context: LoopContext
    private let cluster: (any SharedGameJournal)?
    private var announcements = ViewerAnnouncements()

    init(core: ApplicationCore, context: LoopContext, cluster: (any SharedGameJournal)?) {
        self.core = core
        self.context = context
        self.cluster = cluster
        if cluster != nil { core.metrics.clusterViewers.withLock { $0 = [:] } }
    }

    /// Starts both timers on the lobby's loop, for the life of the server (the timers hold the counter).
    static func start(for core: ApplicationCore) {
        let cluster = core.services.shared
        core.lobby.run { lobby in
            let counter = ViewerCounter(core: core, context: lobby.context, cluster: cluster)
            counter.scheduleAnnouncement()
            counter.exchange()
        }
    }

    private func scheduleAnnouncement() {
        _ = context.scheduleTimer(after: core.configuration.viewerCountInterval) { [self] _ in
            announce()
            scheduleAnnouncement()
        }
    }

    private func announce() {
        for (game, viewers) in announcements.tick(counts: core.metrics.viewerCounts) {
            core.lobby.run { $0.setViewers(viewers, of: game) }
            let text = String(decoding: ViewerAnnouncements.message(game: game, viewers: viewers), as: UTF8.self)
            core.registry.handle(game)?.withOwner(from: context) { owner in owner.feed.channel.publish(text: text) }
        }
    }

    private func exchange() {
        guard let cluster, !core.isStopping else { return }
        let interval = core.configuration.sharedViewerCountInterval
        let metrics = core.metrics
        cluster.exchangeViewerCounts(metrics.spectatorCounts, ttl: interval * 3) { result in
            // A failed exchange keeps the last totals (Redis away: /healthz says so).
            if case .success(let totals) = result { metrics.clusterViewers.withLock { $0 = totals } }
        }
        _ = context.scheduleTimer(after: interval) { [self] _ in exchange() }
    }
}

@available(*, unavailable)
extension ViewerCounter: Sendable {}
