import CourtsideJournal
import CourtsideModel
import Synchronization

/// Games partitioned over several Redis servers by game id (docs/cluster.md, "Past one Redis"): one `RedisJournal`
/// per server, each a complete store for its games with its own feed. Every write and read names one game and goes
/// to that game's partition (`GamePartitions.partition(of:count:)`), so the library's functions stay atomic and
/// nothing crosses partitions. The lobby is the union of the partitions' games; the demo lease lives in partition
/// 0; a new game goes to the partition holding the fewest games among those that answer.
///
/// With one server it behaves exactly as that `RedisJournal` (ids `game-N`); the partition record written at start
/// is the only addition.
public final class PartitionedRedisJournal: SharedGameJournal {
    /// The partitions, in the configured order: index P holds the ids `GamePartitions` maps to P.
    public let partitions: [RedisJournal]
    /// Per partition: its place is checked and its games are this node's (false: it did not answer at start, and
    /// its games answer `unavailable` until `recover` succeeds).
    private let loaded: Mutex<[Bool]>

    /// Claims (or checks) each journal's place in the list (`courtside:partition`), so that two nodes never disagree
    /// on where a game lives. Blocks: start-up only. Throws naming the first server out of place; the journals are
    /// left open (the caller closes them). A partition whose server did not answer at start (made with
    /// `startsWhileUnreachable`) waits (`waiting`).
    public init(partitions: [RedisJournal]) throws(RedisPartitionError) {
        precondition(!partitions.isEmpty, "a partitioned journal needs at least one Redis")
        var seen: Set<String> = []
        for journal in partitions {
            let place = "\(journal.url.host):\(journal.url.port)/\(journal.url.database)"
            guard seen.insert(place).inserted else { throw .duplicate(url: journal.url.description) }
        }
        var loaded: [Bool] = []
        for (index, journal) in partitions.enumerated() {
            guard journal.isPrepared else {
                loaded.append(false)
                continue
            }
            try journal.claimPartition(index: index, size: partitions.count)
            loaded.append(true)
        }
        self.partitions = partitions
        self.loaded = Mutex(loaded)
    }

    /// The partitions that did not answer at start and have not been recovered yet.
    public var waiting: [Int] {
        loaded.withLock { loaded in loaded.indices.filter { !loaded[$0] } }
    }

    /// Whether `id` lives in a partition that is waiting: its game answers `unavailable`, not "unknown".
    public func isWaiting(for id: GameID) -> Bool {
        guard let index = GamePartitions.partition(of: id, count: partitions.count) else { return false }
        return loaded.withLock { !$0[index] }
    }

    /// Tries a waiting partition again: loads its library, checks its place, and answers the ids of its games (the
    /// caller loads them, then calls `markLoaded`). Blocks: not on an event loop.
    public func recover(_ index: Int) throws(RedisPartitionError) -> [GameID] {
        let journal = partitions[index]
        do throws(JournalError) {
            try journal.prepare()
        } catch {
            throw .unavailable(url: journal.url.description, reason: "\(error)")
        }
        try journal.claimPartition(index: index, size: partitions.count)
        do throws(JournalError) {
            return try journal.gameIDs()
        } catch {
            throw .unavailable(url: journal.url.description, reason: "\(error)")
        }
    }

    /// The partition's games are this node's from now on (new games may go there too).
    public func markLoaded(_ index: Int) {
        loaded.withLock { $0[index] = true }
    }

    /// The journal that holds `id`, or nil when no partition can (`GamePartitions`).
    public func partition(of id: GameID) -> RedisJournal? {
        GamePartitions.partition(of: id, count: partitions.count).map { partitions[$0] }
    }

    // MARK: GameJournal

    public func submit(_ write: JournalWrite, completion: @escaping JournalCompletion) {
        guard let journal = partition(of: write.gameID) else {
            completion(.failure(.unknownGame(write.gameID)))
            return
        }
        journal.submit(write, completion: completion)
    }

    public func loadGames() throws(JournalError) -> [JournaledGame] {
        try loadContents().gamesOrFirstError()
    }

    /// Every partition's games, partition 0's first. A game stored in a partition its id does not map to (written
    /// there by hand) is quarantined: no write could reach it.
    public func loadContents() throws(JournalError) -> JournalContents {
        var contents = JournalContents(games: [])
        let waiting = self.waiting
        for (index, journal) in partitions.enumerated() where !waiting.contains(index) {
            let loaded = try journal.loadContents()
            contents.quarantined += loaded.quarantined
            for game in loaded.games {
                if GamePartitions.partition(of: game.id, count: partitions.count) == index {
                    contents.games.append(game)
                } else {
                    contents.quarantined.append(
                        QuarantinedGame(
                            id: game.id,
                            problem: "game \(game.id) is stored in partition \(index), not where its id"
                                + " places it"))
                }
            }
        }
        return contents
    }

    public func close() {
        for journal in partitions { journal.close() }
    }

    // MARK: SharedGameJournal

    public var nodeID: String { partitions[0].nodeID }

    public func events(
        ofGame id: GameID, after: Int, completion: @escaping @Sendable (Result<[JournaledEvent], JournalError>) -> Void
    ) {
        guard let journal = partition(of: id) else { return completion(.failure(.unknownGame(id))) }
        journal.events(ofGame: id, after: after, completion: completion)
    }

    public func loadGame(_ id: GameID, completion: @escaping @Sendable (Result<JournaledGame, JournalError>) -> Void) {
        guard let journal = partition(of: id) else { return completion(.failure(.unknownGame(id))) }
        journal.loadGame(id, completion: completion)
    }

    /// Whether every partition answers (the health check asks each partition on its own: `StoreProbe`).
    public func ping(completion: @escaping @Sendable (Bool) -> Void) {
        let gather = Gather<Bool>(count: partitions.count) { answers in completion(answers.allSatisfy { $0 }) }
        for (index, journal) in partitions.enumerated() {
            journal.ping { gather.answer(index, $0) }
        }
    }

    /// Leases (the demo runner's) live in partition 0.
    public func lease(
        _ name: String, for duration: Duration, completion: @escaping @Sendable (Result<Bool, JournalError>) -> Void
    ) {
        partitions[0].lease(name, for: duration, completion: completion)
    }

    /// Each game's counts go to its own partition and are summed there; the answers are merged. A partition that
    /// does not answer leaves its games out (their counts are shown as this node's own until it answers again);
    /// fails only when none answers.
    public func exchangeViewerCounts(
        _ counts: [GameID: Int], ttl: Duration,
        completion: @escaping @Sendable (Result<[GameID: Int], JournalError>) -> Void
    ) {
        var split = Array(repeating: [GameID: Int](), count: partitions.count)
        for (game, count) in counts {
            if let index = GamePartitions.partition(of: game, count: partitions.count) { split[index][game] = count }
        }
        let gather = Gather<Result<[GameID: Int], JournalError>>(count: partitions.count) { answers in
            var merged: [GameID: Int] = [:]
            var failure: JournalError?
            var answered = false
            for answer in answers {
                switch answer {
                case .success(let totals):
                    answered = true
                    merged.merge(totals) { $0 + $1 }
                case .failure(let error):
                    failure = error
                }
            }
            if !answered, let failure { return completion(.failure(failure)) }
            completion(.success(merged))
        }
        for (index, journal) in partitions.enumerated() {
            journal.exchangeViewerCounts(split[index], ttl: ttl) { gather.answer(index, $0) }
        }
    }

    /// Asks every partition how many games it holds and takes an id from the one with the fewest (ties to the
    /// lowest index) among those that answered, so a partition that is down does not stop games being created.
    public func nextGameID(completion: @escaping @Sendable (Result<GameID, JournalError>) -> Void) {
        let partitions = self.partitions
        guard partitions.count > 1 else {
            return partitions[0].nextGameID(prefix: GamePartitions.idPrefix(forPartition: 0), completion: completion)
        }
        let waiting = self.waiting
        let gather = Gather<Result<Int, JournalError>>(count: partitions.count) { answers in
            // A waiting partition's games are not this node's yet: no new game goes there meanwhile.
            let counts = answers.enumerated().map { waiting.contains($0.offset) ? nil : try? $0.element.get() }
            guard let index = GamePartitions.partitionForNewGame(counts: counts) else {
                if case .failure(let error) = answers[0] { return completion(.failure(error)) }
                return completion(.failure(.unavailable(reason: "no partition answered")))
            }
            partitions[index].nextGameID(
                prefix: GamePartitions.idPrefix(forPartition: index), completion: completion)
        }
        for (index, journal) in partitions.enumerated() {
            journal.gameCount { gather.answer(index, $0) }
        }
    }
}

/// Collects one answer per partition (they arrive on the partitions' own loops, in any order) and hands them over,
/// in partition order, once the last arrived.
final class Gather<Answer: Sendable>: Sendable {
    private let answers: Mutex<[Answer?]>
    private let done: @Sendable ([Answer]) -> Void

    init(count: Int, done: @escaping @Sendable ([Answer]) -> Void) {
        answers = Mutex(Array(repeating: nil, count: count))
        self.done = done
    }

    func answer(_ index: Int, _ answer: Answer) {
        let complete = answers.withLock { answers -> [Answer]? in
            answers[index] = answer
            let all = answers.compactMap { $0 }
            return all.count == answers.count ? all : nil
        }
        if let complete { done(complete) }
    }
}
