import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRedis
import CourtsideRedisClient
import Dispatch
import Synchronization

/// A `GameJournal` on Redis Streams: each game's events are a stream (entry id = event sequence), the
/// authoritative log; every write is one call of a server-side function (`RedisJournalLibrary`) that checks it
/// exactly as `JournalRules` does and stores it atomically, and a completion reports success only after that
/// function returned. With Redis's `appendfsync always`, Redis has fsynced the write to its AOF before replying,
/// so an acked write survives Redis being killed (docs/redis.md).
///
/// Writes are pipelined on one connection (`RedisClient` on one event loop), so writes submitted from one thread
/// reach Redis, and are answered, in submission order: group commit happens in Redis, whose one fsync per event
/// loop iteration covers every write that arrived meanwhile. Completions run on that loop.
///
/// What is not retried here: a write whose connection dropped before its reply completes with `.unavailable`
/// (it may or may not be stored). Resubmitting the very same write is safe (the function answers a byte-for-byte
/// repeat as the original success), but the journal does not do it on its own: later writes of the same game may
/// already be queued behind it, and the owner decides (docs/redis.md).
public final class RedisJournal: GameJournal {
    public struct Configuration: Sendable {
        /// Entries the shared feed keeps (`XADD … MAXLEN ~`): what a node that fell behind can still catch up
        /// from. 100,000 entries of ~300 bytes is ~30 MB of Redis memory.
        public var feedLength = 100_000
        /// Stream entries read per `XRANGE` while loading (bounds one reply).
        public var loadPageSize = 1_000
        /// The connection's settings (timeouts, backoff); the request timeout bounds how long a write may wait
        /// while Redis is unreachable before failing with `.unavailable`.
        public var client = RedisClient.Configuration(clientName: "courtside-journal")
        /// Names this node in the feed entries it writes (field `n`), so its own feed tailer can skip them. Random
        /// by default: unique per process.
        public var nodeID = (0..<8).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
        /// A partition of several (docs/cluster.md, "Past one Redis"): when the server does not answer at start, the
        /// journal is made anyway (`isPrepared` false) and its owner calls `prepare()` again until it answers, so a
        /// node serves the other partitions meanwhile. False: an unreachable server fails the start.
        public var startsWhileUnreachable = false

        public init() {}
    }

    public let url: RedisURL
    let client: RedisClient
    public let configuration: Configuration
    /// The one-thread loop group the journal made for itself (`init(url:configuration:)`), shut down by `close`.
    private let ownedGroup: EventLoopGroup?
    private let state = Mutex(State())
    private let drained = DispatchSemaphore(value: 0)

    private struct State {
        /// The library is loaded and its version checked.
        var prepared = false
        var outstanding = 0
        var isClosed = false
        var closeWaits = false
    }

    /// Connects to `url` on `loop` and loads the function library (replacing an older version). Blocks: call it at
    /// start-up, not on an event loop. Throws `.unavailable` when Redis cannot be reached within the request timeout.
    public convenience init(url: RedisURL, loop: EventLoop, configuration: Configuration = Configuration())
        throws(JournalError)
    {
        try self.init(url: url, loop: loop, ownedGroup: nil, configuration: configuration)
    }

    /// The same on a loop thread of its own (`courtside-0` of a one-thread group), as `SQLiteJournal` has its
    /// writer thread: for a server whose loops start after the journal opened.
    public convenience init(url: RedisURL, configuration: Configuration = Configuration()) throws(JournalError) {
        let group: EventLoopGroup
        do {
            group = try EventLoopGroup(threadCount: 1)
        } catch {
            throw .unavailable(reason: "cannot start the Redis client's thread: \(error)")
        }
        do {
            try self.init(url: url, loop: group.loops[0], ownedGroup: group, configuration: configuration)
        } catch {
            group.shutdown()
            throw error
        }
    }

    private init(url: RedisURL, loop: EventLoop, ownedGroup: EventLoopGroup?, configuration: Configuration)
        throws(JournalError)
    {
        self.url = url
        self.configuration = configuration
        self.ownedGroup = ownedGroup
        do {
            client = try RedisClient(url: url, loop: loop, configuration: configuration.client)
        } catch {
            throw .unavailable(reason: "\(error)")
        }
        do throws(JournalError) {
            try prepare()
        } catch {
            // An unreachable server (not one that refused): a partition may wait for it.
            if configuration.startsWhileUnreachable, case .unavailable = error { return }
            client.close()
            throw error
        }
    }

    /// Whether the library was loaded (at start, or by a later `prepare()`).
    public var isPrepared: Bool { state.withLock { $0.prepared } }

    /// Loads the library (replacing an older version) and checks its version. Blocks: not on an event loop.
    public func prepare() throws(JournalError) {
        do {
            _ = try client.sendAndWait(Self.loadLibrary)
            let version = try client.sendAndWait(RESPCommand("FCALL", "courtside_version", 0))
            guard version.integer == Int64(RedisJournalLibrary.version) else {
                throw RedisError.server("the loaded library reports version \(version)")
            }
        } catch {
            throw Self.journalError(error, gameID: nil)
        }
        state.withLock { $0.prepared = true }
    }

    deinit {
        // Pending writes hold the journal (their completions capture it), so none is pending here.
        close()
    }

    public func submit(_ write: JournalWrite, completion: @escaping JournalCompletion) {
        let admitted = state.withLock { state -> Bool in
            if state.isClosed { return false }
            state.outstanding += 1
            return true
        }
        guard admitted else {
            completion(.failure(.closed))
            return
        }
        let command: RESPCommand
        do {
            command = try RedisJournalKeys.command(
                for: write, feedLength: configuration.feedLength, node: configuration.nodeID)
        } catch {
            completion(.failure(error))
            finished()
            return
        }
        client.send(command) { [self] result in
            guard case .failure(.server(let message)) = result, message.hasPrefix(Self.functionMissing) else {
                completion(Self.interpret(result, of: write))
                finished()
                return
            }
            // The library is gone (a Redis restarted without persistence, `FUNCTION FLUSH`): the write never ran,
            // so load the library again and send it once more.
            client.send(Self.loadLibrary) { [self] loaded in
                guard case .success = loaded else {
                    completion(Self.interpret(result, of: write))
                    finished()
                    return
                }
                client.send(command) { [self] retried in
                    completion(Self.interpret(retried, of: write))
                    finished()
                }
            }
        }
    }

    /// What Redis answers an `FCALL` of a function it does not know.
    static let functionMissing = "ERR Function not found"
    /// Loads (or replaces) the journal's function library.
    static let loadLibrary = RESPCommand("FUNCTION", "LOAD", "REPLACE", .string(RedisJournalLibrary.source))

    public func loadGames() throws(JournalError) -> [JournaledGame] {
        if state.withLock({ $0.isClosed }) { throw .closed }
        let loader = RedisJournalLoader(client: client, pageSize: configuration.loadPageSize)
        return try loader.loadGames()
    }

    /// The ids of the stored games, in creation order. Blocks: not on an event loop.
    public func gameIDs() throws(JournalError) -> [GameID] {
        if state.withLock({ $0.isClosed }) { throw .closed }
        return try RedisJournalLoader(client: client, pageSize: configuration.loadPageSize).gameIDs()
    }

    public func close() {
        let wait = state.withLock { state -> Bool? in
            if state.isClosed { return nil }
            state.isClosed = true
            state.closeWaits = state.outstanding > 0
            return state.closeWaits
        }
        guard let wait else { return }
        // Every write completes within its request timeout (a library reload adds at most two more), so the wait is
        // bounded; the deadline guards against a loop that was stopped first, whose completions never come (the
        // journal then closes without them). On the client's own loop (a completion closing the journal) waiting would
        // block the replies it waits for: only mark it closed.
        let onLoop = client.loop.inEventLoop
        if wait && !onLoop {
            let bound = configuration.client.requestTimeout * 3 + configuration.client.connectTimeout
            _ = drained.wait(timeout: .now() + .milliseconds(Int(bound / .milliseconds(1))))
        }
        client.close()
        // From a completion (on the loop itself) the group cannot be joined; its thread ends with the process.
        if !onLoop { ownedGroup?.shutdown() }
    }

    private func finished() {
        let signal = state.withLock { state -> Bool in
            state.outstanding -= 1
            guard state.outstanding == 0, state.closeWaits else { return false }
            state.closeWaits = false
            return true
        }
        if signal { drained.signal() }
    }

    /// A reply (or the client's failure) as the journal's result for `write`.
    static func interpret(_ result: Result<RESPValue, RedisError>, of write: JournalWrite) -> Result<Void, JournalError>
    {
        switch result {
        case .success: return .success(())
        case .failure(let error): return .failure(journalError(error, write: write))
        }
    }

    static func journalError(_ error: any Error, gameID: GameID?) -> JournalError {
        if let journal = error as? JournalError { return journal }
        guard let redis = error as? RedisError else { return .storageFailure(reason: "\(error)") }
        switch redis {
        case .server(let message): return .storageFailure(reason: message)
        case .closed: return .closed
        default: return .unavailable(reason: "\(redis)")
        }
    }

    /// Maps the function's refusal codes (see `RedisJournalLibrary`) to the errors `JournalRules` would throw.
    static func journalError(_ error: RedisError, write: JournalWrite) -> JournalError {
        guard case .server(let message) = error else { return journalError(error, gameID: write.gameID) }
        let id = write.gameID
        // Redis puts `ERR` before an error without a code of its own (a single word): skip it.
        var words = message.split(separator: " ")
        if words.first == "ERR" { words.removeFirst() }
        let numbers = words.dropFirst().compactMap { Int($0) }
        switch (words.first, numbers.count) {
        case ("UNKNOWNGAME", _): return .unknownGame(id)
        case ("DUPGAME", _): return .duplicateGame(id)
        case ("ARCHIVED", _): return .gameArchived(id)
        case ("SEQUENCE", 2): return .unexpectedSequence(id, expected: numbers[0], got: numbers[1])
        case ("PRESENTATION", 3):
            return .presentationSequenceWentBack(id, sequence: numbers[0], previous: numbers[1], got: numbers[2])
        case ("DUPCID", 1):
            if case .appendEvents(let events, _) = write, events.indices.contains(numbers[0]),
                let command = events[numbers[0]].event.commandID
            {
                return .duplicateCommandID(id, command)
            }
            return .storageFailure(reason: message)
        default:
            return .storageFailure(reason: message)
        }
    }
}
