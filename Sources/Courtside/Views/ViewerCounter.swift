import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// Announces viewer counts (issue 13 §3) every `viewerCountInterval` on the lobby's loop: the figures
/// `ViewerAnnouncements` says are due go into the lobby rows (`viewers`) and, as one `viewers` message encoded once,
/// to each game's subscribers. Counts are the open spectator sockets and event streams the metrics keep per game
/// (`ServerMetrics.viewerCounts`: every node's, summed through Redis when nodes share it). Loop-confined.
final class ViewerCounter {
    private let core: ApplicationCore
    private let context: LoopContext
    private var announcements = ViewerAnnouncements()
    private var timer: TimerID?

    init(core: ApplicationCore, context: LoopContext) {
        self.core = core
        self.context = context
    }

    /// Starts announcing on the lobby's loop, for the life of the server (the timer holds the counter).
    static func start(for core: ApplicationCore) {
        core.lobby.run { lobby in ViewerCounter(core: core, context: lobby.context).start() }
    }

    func start() {
        timer = context.scheduleTimer(after: core.configuration.viewerCountInterval) { [self] _ in
            timer = nil
            announce()
            start()
        }
    }

    func stop() {
        if let timer { context.cancelTimer(timer) }
        timer = nil
    }

    private func announce() {
        for (game, viewers) in announcements.tick(counts: core.metrics.viewerCounts) {
            core.lobby.run { $0.setViewers(viewers, of: game) }
            let text = String(decoding: ViewerAnnouncements.message(game: game, viewers: viewers), as: UTF8.self)
            core.registry.handle(game)?.withOwner(from: context) { owner in owner.feed.channel.publish(text: text) }
        }
    }
}

@available(*, unavailable)
extension ViewerCounter: Sendable {}
