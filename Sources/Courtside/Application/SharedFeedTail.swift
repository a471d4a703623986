import CourtsideJournal
import CourtsideNet
import CourtsideRedisJournal
import Synchronization

/// A node's reading of the shared feeds: one tailer per Redis partition (each partition has its own feed; entries
/// of different partitions need no order between them, since each game's order is its own stream's), made and
/// positioned before the games are loaded, and the router they hand entries to once the games are installed
/// (docs/redis.md, "Several nodes on one store"; docs/cluster.md, "Past one Redis").
final class SharedFeedTail: Sendable {
    private let tailers: [RedisFeedTailer]
    private let router = RouterSlot()

    /// Where deliveries go once the games are installed (the tailers are made before them).
    private final class RouterSlot: Sendable {
        let router = Mutex<SharedFeedRouter?>(nil)
        var current: SharedFeedRouter? { router.withLock { $0 } }
    }

    /// A tailer on `loop` for each of `partitions`' servers (in order), positioned at its feed's current end.
    /// Blocks: start-up.
    init(partitions: [RedisJournal], loop: EventLoop) throws(ApplicationError) {
        var tailers: [RedisFeedTailer] = []
        let router = self.router
        // Courts live in partition 0 (`RedisCourtStore`).
        let courtChanged: RedisFeedTailer.CourtChanged = { court in router.current?.courtChanged(court) }
        for (index, journal) in partitions.enumerated() {
            var configuration = RedisFeedTailer.Configuration()
            configuration.client.tlsCAFile = journal.configuration.client.tlsCAFile
            do {
                let tailer = try RedisFeedTailer(
                    url: journal.url, loop: loop, node: journal.nodeID, configuration: configuration,
                    created: { game in router.current?.created(game) },
                    archived: { game in router.current?.archived(game) },
                    courtChanged: index == 0 ? courtChanged : nil,
                    deliver: { entries in router.current?.deliver(entries) })
                tailers.append(tailer)
                try tailer.markEnd()
            } catch {
                for made in tailers { made.stop() }
                throw .redisJournal(url: journal.url.description, .unavailable(reason: "the feed: \(error)"))
            }
        }
        self.tailers = tailers
    }

    /// Starts delivering to `router`; `games` (loaded from the journal) are known up to their last event, each by
    /// its own partition's tailer.
    func start(router: SharedFeedRouter, games: [JournaledGame]) {
        self.router.router.withLock { $0 = router }
        for game in games {
            let index = GamePartitions.partition(of: game.id, count: tailers.count) ?? 0
            tailers[index].know(game.id, through: game.lastEventSequence)
        }
        for tailer in tailers { tailer.start() }
    }

    func stop() {
        for tailer in tailers { tailer.stop() }
    }
}
