import CourtsideJournal
import CourtsideNet
import CourtsideRedisJournal
import Synchronization

/// A node's reading of the shared feed: the tailer, made and positioned before the games are loaded, and the router
/// it hands entries to once the games are installed (docs/redis.md, "Several nodes on one store").
final class SharedFeedTail: Sendable {
    private let tailer: RedisFeedTailer
    private let router = RouterSlot()

    /// Where deliveries go once the games are installed (the tailer is made before them).
    private final class RouterSlot: Sendable {
        let router = Mutex<SharedFeedRouter?>(nil)
        var current: SharedFeedRouter? { router.withLock { $0 } }
    }

    /// A tailer on `loop` for `journal`'s server and node, positioned at the feed's current end. Blocks: start-up.
    init(journal: RedisJournal, loop: EventLoop) throws(ApplicationError) {
        var configuration = RedisFeedTailer.Configuration()
        configuration.client.tlsCAFile = journal.configuration.client.tlsCAFile
        let router = self.router
        do {
            tailer = try RedisFeedTailer(
                url: journal.url, loop: loop, node: journal.nodeID, configuration: configuration,
                created: { game in router.current?.created(game) },
                deliver: { entries in router.current?.deliver(entries) })
            try tailer.markEnd()
        } catch {
            throw .redisJournal(url: journal.url.description, .unavailable(reason: "the feed: \(error)"))
        }
    }

    /// Starts delivering to `router`; `games` (loaded from the journal) are known up to their last event.
    func start(router: SharedFeedRouter, games: [JournaledGame]) {
        self.router.router.withLock { $0 = router }
        for game in games { tailer.know(game.id, through: game.lastEventSequence) }
        tailer.start()
    }

    func stop() {
        tailer.stop()
    }
}
