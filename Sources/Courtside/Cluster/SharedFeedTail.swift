import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRedisJournal
import Dispatch
import Synchronization

/// A node's reading of the shared feeds: one tailer per Redis partition (each partition has its own feed; entries
/// of different partitions need no order between them, since each game's order is its own stream's), made and
/// positioned before the games are loaded, and the router they hand entries to once the games are installed
/// (docs/redis.md, "Several nodes on one store"; docs/cluster.md, "Past one Redis").
///
/// A partition that did not answer at start (`PartitionedRedisJournal.waiting`) is tried again every
/// `retryInterval` off the loops: once it answers, its feed's end is marked, its games are listed and loaded
/// through the router (as games another node created), and its tailer starts, in that order, so a write made
/// meanwhile is both loaded and delivered, never neither. Partition 0's courts are loaded the same way.
final class SharedFeedTail: Sendable {
    private let tailers: [RedisFeedTailer]
    private let router = RouterSlot()
    private let partitioned: PartitionedRedisJournal?
    private let retryInterval: Duration
    private let recovery = DispatchQueue(label: "courtside.partition-recovery")
    private let stopped = Mutex(false)

    /// Where deliveries go once the games are installed (the tailers are made before them).
    private final class RouterSlot: Sendable {
        let router = Mutex<SharedFeedRouter?>(nil)
        var current: SharedFeedRouter? { router.withLock { $0 } }
    }

    /// A tailer on `loop` for each of `partitions`' servers (in order), positioned at its feed's current end (but
    /// for `partitioned`'s waiting partitions), its read retries waiting on `scheduler` (that loop's). Blocks:
    /// start-up.
    init(
        partitions: [RedisJournal], partitioned: PartitionedRedisJournal?, loop: EventLoop,
        scheduler: any LoopScheduler, retryInterval: Duration = .seconds(1)
    ) throws(ApplicationError) {
        var tailers: [RedisFeedTailer] = []
        let router = self.router
        let waiting = partitioned?.waiting ?? []
        // Courts live in partition 0 (`RedisCourtStore`).
        let courtChanged: RedisFeedTailer.CourtChanged = { court in router.current?.courtChanged(court) }
        for (index, journal) in partitions.enumerated() {
            var configuration = RedisFeedTailer.Configuration()
            configuration.client.tlsCAFile = journal.configuration.client.tlsCAFile
            do {
                let tailer = try RedisFeedTailer(
                    url: journal.url, loop: loop, node: journal.nodeID, configuration: configuration,
                    scheduler: scheduler,
                    created: { game in router.current?.created(game) },
                    archived: { game in router.current?.archived(game) },
                    courtChanged: index == 0 ? courtChanged : nil,
                    deliver: { entries in router.current?.deliver(entries) })
                tailers.append(tailer)
                if !waiting.contains(index) { try tailer.markEnd() }
            } catch {
                for made in tailers { made.stop() }
                throw .redisJournal(url: journal.url.description, .unavailable(reason: "the feed: \(error)"))
            }
        }
        self.tailers = tailers
        self.partitioned = partitioned
        self.retryInterval = retryInterval
    }

    /// Starts delivering to `router`; `games` (loaded from the journal) are known up to their last event, each by
    /// its own partition's tailer. Waiting partitions are tried again until they answer.
    func start(router: SharedFeedRouter, games: [JournaledGame], courts: any CourtStore, logger: Logger) {
        self.router.router.withLock { $0 = router }
        for game in games {
            let index = GamePartitions.partition(of: game.id, count: tailers.count) ?? 0
            tailers[index].know(game.id, through: game.lastEventSequence)
        }
        let waiting = partitioned?.waiting ?? []
        for (index, tailer) in tailers.enumerated() where !waiting.contains(index) { tailer.start() }
        for index in waiting { recover(index, courts: courts, logger: logger) }
    }

    /// Tries the waiting partition `index` again after `retryInterval`, and again until it answers or the node
    /// stops (one try in flight per partition, so nothing piles up).
    private func recover(_ index: Int, courts: any CourtStore, logger: Logger) {
        guard let partitioned else { return }
        let delay = DispatchTimeInterval.milliseconds(Int(retryInterval / .milliseconds(1)))
        recovery.asyncAfter(deadline: .now() + delay) { [self] in
            if stopped.withLock({ $0 }) { return }
            let ids: [GameID]
            var stored: [StoredCourt] = []
            do {
                try tailers[index].markEnd()
                ids = try partitioned.recover(index)
                // Partition 0 holds the courts (`RedisCourtStore`): loaded after its feed's end is marked.
                if index == 0 {
                    stored =
                        try courts.loadStoredCourts()
                        + CourtsideApplication.loadRelayedCourts(courts, logger: logger)
                }
            } catch {
                return recover(index, courts: courts, logger: logger)
            }
            partitioned.markLoaded(index)
            if let router = router.current {
                for id in ids { router.created(id) }
                if index == 0 { router.courtsLoaded(stored) }
            }
            tailers[index].start()
            logger.notice(
                "a partition that was down at start answers: its games are loaded",
                ["partition": "\(index)", "games": "\(ids.count)"])
        }
    }

    func stop() {
        stopped.withLock { $0 = true }
        for tailer in tailers { tailer.stop() }
    }
}
