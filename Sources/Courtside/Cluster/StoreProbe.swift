import CourtsideJournal
import CourtsideNet
import CourtsideRedisJournal
import Synchronization

/// Pings each Redis partition every `interval` on one loop and keeps `PartitionReachability` for `/healthz`. The
/// ping goes over the journal's own connection, so it measures the path the writes take. With several partitions it
/// also exchanges, every other tick, when this node last reached each partition with the other nodes
/// (`RedisJournal.exchangeReach`), so a partition down for everyone does not drain every node (docs/cluster.md,
/// "Past one Redis").
final class StoreProbe: Sendable {
    private let state: Mutex<PartitionReachability>
    /// What is pinged, one per partition (the shared journal itself when it is not Redis: tests' wrappers).
    private let targets: [any SharedGameJournal]
    /// The partitions' journals for the exchange (only with more than one).
    private let exchanges: [RedisJournal]
    private let interval: Duration
    private let stopped = Atomic<Bool>(false)
    private let ticks = Atomic<Int>(0)

    init(
        partitions: [RedisJournal], shared: any SharedGameJournal, interval: Duration = .milliseconds(500),
        threshold: Duration = .seconds(2)
    ) {
        targets = partitions.isEmpty ? [shared] : partitions
        exchanges = partitions.count > 1 ? partitions : []
        self.interval = interval
        state = Mutex(PartitionReachability(count: targets.count, threshold: threshold, start: .now))
    }

    /// Starts probing on `loop`.
    func start(on loop: EventLoop) {
        loop.execute { [self] context in schedule(context) }
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    var verdict: PartitionReachability.Verdict {
        state.withLock { $0.verdict(at: .now) }
    }

    /// Why `/healthz` fails for Redis, as a sentence, else nil: this node does not reach a partition the others
    /// reach (or cannot tell, as with one Redis). A partition down for everyone is no reason.
    var problem: String? {
        Self.problem(verdict, partitions: targets.count)
    }

    /// The sentence for `verdict`. `/healthz` is public, so a partition is named by its index in `--redis` only:
    /// never its user, host or port (the operator knows which URL is which from the order of the list).
    static func problem(_ verdict: PartitionReachability.Verdict, partitions: Int) -> String? {
        guard case .cutOff(let silent) = verdict else { return nil }
        return silent.sorted { $0.key < $1.key }.map { partition, duration in
            let milliseconds = Int(duration / .milliseconds(1))
            let seconds = "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
            guard partitions > 1 else { return "redis has not answered for \(seconds)" }
            return "redis partition \(partition) has not answered for \(seconds) while other nodes reach it"
        }.joined(separator: "; ")
    }

    private func schedule(_ context: LoopContext) {
        guard !stopped.load(ordering: .relaxed) else { return }
        _ = context.scheduleTimer(after: interval) { [self] context in
            for (index, target) in targets.enumerated() where state.withLock({ $0.timerFired(partition: index) }) {
                target.ping { [self] success in
                    state.withLock { $0.probeAnswered(partition: index, success: success, at: .now) }
                }
            }
            if !exchanges.isEmpty, ticks.wrappingAdd(1, ordering: .relaxed).oldValue % 2 == 1 { exchange() }
            schedule(context)
        }
    }

    /// Publishes this node's ages to every partition it reaches and keeps what each answers about the others.
    private func exchange() {
        let (ages, reachable) = state.withLock { state in (state.ages(at: .now), state.reachable(at: .now)) }
        for index in reachable {
            exchanges[index].exchangeReach(ages, ttl: interval * 6) { [self] result in
                guard case .success(let others) = result else { return }
                state.withLock { $0.reportArrived(from: index, others: others, at: .now) }
            }
        }
    }
}
