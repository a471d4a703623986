import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRedis
import CourtsideRedisClient
import Synchronization

/// Follows the shared feed with `XREAD BLOCK` on a connection of its own (a blocking read must not hold up the
/// journal's writes) and hands every other node's events to `deliver`, in feed order, on the client's loop. Gaps
/// (trimmed or missed entries of a game) are repaired with `XRANGE` on the game's stream before the entry that
/// revealed them (`RedisFeedCursor` decides).
///
/// Failures never stop it: a failed read is retried after `retryDelay` on the same position (the client
/// reconnects on its own). Delivery is at least once per process lifetime for each entry read; a node restarts
/// from the end of the feed and must load what it holds from the journal first.
public final class RedisFeedTailer: Sendable {
    public typealias Deliver = @Sendable ([RedisFeedEntry]) -> Void
    /// Called with a game another node created (its creation entry: no event yet), in feed order with `deliver`.
    public typealias Created = @Sendable (GameID) -> Void
    /// Called with a game another node archived, in feed order with `deliver`.
    public typealias Archived = @Sendable (GameID) -> Void
    /// Called with a court as a node stored it (`RedisCourtStore`; this node's own changes too, so a change whose
    /// reply was lost is still shown), in feed order with `deliver`.
    public typealias CourtChanged = @Sendable (StoredCourt) -> Void

    /// One feed entry as read: an event, or a game's creation.
    enum Item {
        case event(RedisFeedEntry)
        case created(GameID, node: String)
        case archived(GameID, node: String)
        case court(StoredCourt)
        /// Not a whole batch (a corrupted entry): passed over, the cursor repairs the gap it leaves.
        case unreadable
    }

    public struct Configuration: Sendable {
        /// How long one `XREAD` blocks. 1 s: long enough to cost nothing when idle, short enough that a stop or a
        /// dead connection is noticed quickly.
        public var block: Duration = .seconds(1)
        /// Entries per read.
        public var count = 512
        /// The wait before reading again after a failure.
        public var retryDelay: Duration = .milliseconds(200)
        public var client = RedisClient.Configuration(clientName: "courtside-feed")

        public init() {}
    }

    private let client: RedisClient
    /// Where a retry waits: the client's loop, or a test's scheduler driven by hand.
    private let scheduler: any LoopScheduler
    private let configuration: Configuration
    private let deliver: Deliver
    private let created: Created?
    private let archived: Archived?
    private let courtChanged: CourtChanged?
    private let state: Mutex<State>

    private struct State {
        var cursor: RedisFeedCursor
        var stopped = false
        var started = false
        /// `markEnd()` set the position.
        var marked = false
    }

    /// A tailer for `node` (whose own entries are skipped); `start()` begins reading after the feed's current end.
    /// Its retries wait on `scheduler` (nil: `loop`, whose scheduler is fetched here: blocks, so not on a loop).
    public init(
        url: RedisURL, loop: EventLoop, node: String, configuration: Configuration = Configuration(),
        scheduler: (any LoopScheduler)? = nil, created: Created? = nil, archived: Archived? = nil,
        courtChanged: CourtChanged? = nil,
        deliver: @escaping Deliver
    ) throws(RedisClientError) {
        var clientConfiguration = configuration.client
        clientConfiguration.requestTimeout = max(clientConfiguration.requestTimeout, configuration.block + .seconds(2))
        client = try RedisClient(url: url, loop: loop, configuration: clientConfiguration)
        self.configuration = configuration
        self.scheduler = scheduler ?? loop.makeScheduler()
        self.deliver = deliver
        self.created = created
        self.archived = archived
        self.courtChanged = courtChanged
        state = Mutex(State(cursor: RedisFeedCursor(node: node, after: "0-0")))
    }

    /// Notes games this node already holds (loaded from the journal), so their next entries are checked for gaps.
    public func know(_ game: GameID, through sequence: Int) {
        state.withLock { $0.cursor.know(game, through: sequence) }
    }

    /// Finds the feed's current last entry now (blocks: start-up only), so that `start()` reads after it. Call it
    /// before loading the games from the journal: what is written meanwhile is then both loaded and delivered (the
    /// owner skips what it holds), never neither.
    public func markEnd() throws(RedisError) {
        let reply = try client.sendAndWait(
            RESPCommand("XREVRANGE", .string(RedisJournalKeys.feed), "+", "-", "COUNT", 1))
        let last = reply.elements?.first?.elements?.first?.string ?? "0-0"
        state.withLock {
            $0.cursor.move(after: last)
            $0.marked = true
        }
    }

    /// Starts reading after the feed's current last entry (found with `XREVRANGE … COUNT 1`), or after the one
    /// `markEnd()` found.
    public func start() {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        if state.withLock({ $0.marked }) {
            readNext()
            return
        }
        client.send(RESPCommand("XREVRANGE", .string(RedisJournalKeys.feed), "+", "-", "COUNT", 1)) { [self] result in
            switch result {
            case .success(let reply):
                let last = reply.elements?.first?.elements?.first?.string ?? "0-0"
                state.withLock { $0.cursor.move(after: last) }
                readNext()
            case .failure:
                retry { self.started(again: true) }
            }
        }
    }

    /// Stops reading; a read in flight is answered and dropped.
    public func stop() {
        state.withLock { $0.stopped = true }
        client.close()
    }

    private func started(again: Bool) {
        state.withLock { $0.started = false }
        start()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func readNext() {
        guard !isStopped else { return }
        let after = state.withLock { $0.cursor.lastID }
        let blockMilliseconds = Int(configuration.block / .milliseconds(1))
        let command = RESPCommand(
            "XREAD", "COUNT", .integer(configuration.count), "BLOCK", .integer(blockMilliseconds), "STREAMS",
            .string(RedisJournalKeys.feed), .string(after))
        client.send(command) { [self] result in
            // Stopped while the read was on its way (the close runs on the loop, maybe after the reply): dropped.
            guard !isStopped else { return }
            switch result {
            case .success(let reply):
                guard let entries = Self.entries(of: reply) else {
                    retry { self.readNext() }
                    return
                }
                process(entries[...])
            case .failure:
                retry { self.readNext() }
            }
        }
    }

    /// Decides about each entry in order; a repair reads the missing events before going on.
    private func process(_ entries: ArraySlice<(id: String, item: Item)>) {
        var ready: [RedisFeedEntry] = []
        var rest = entries
        while let (id, item) = rest.first {
            rest = rest.dropFirst()
            let entry: RedisFeedEntry
            switch item {
            case .created(let game, let node):
                let isNew = state.withLock { $0.cursor.acceptCreation(of: game, by: node, id: id) }
                if isNew, let created {
                    if !ready.isEmpty { deliver(ready) }
                    ready = []
                    created(game)
                }
                continue
            case .archived(let game, let node):
                let own = state.withLock { state in
                    state.cursor.move(after: id)
                    return state.cursor.node == node
                }
                if !own, let archived {
                    if !ready.isEmpty { deliver(ready) }
                    ready = []
                    archived(game)
                }
                continue
            case .court(let court):
                state.withLock { $0.cursor.move(after: id) }
                if let courtChanged {
                    if !ready.isEmpty { deliver(ready) }
                    ready = []
                    courtChanged(court)
                }
                continue
            case .unreadable:
                state.withLock { $0.cursor.move(after: id) }
                continue
            case .event(let event):
                entry = event
            }
            switch state.withLock({ $0.cursor.accept(entry, id: id) }) {
            case .deliver(let entry):
                ready.append(entry)
            case .skipOwn, .skipDuplicate:
                continue
            case .repair(let game, let from, let through, let then):
                if !ready.isEmpty { deliver(ready) }
                let remaining = rest
                repair(game, from: from, through: through) { [self] repaired in
                    deliver(repaired + [then])
                    process(remaining)
                }
                return
            }
        }
        if !ready.isEmpty { deliver(ready) }
        readNext()
    }

    private func repair(
        _ game: GameID, from: Int, through: Int, then: @escaping @Sendable ([RedisFeedEntry]) -> Void
    ) {
        let command = RESPCommand(
            "XRANGE", .string(RedisJournalKeys.events(game)), .string("\(from)-0"), .string("\(through)-0"))
        client.send(command) { [self] result in
            guard case .success(let reply) = result, let entries = reply.elements else {
                retry { self.repair(game, from: from, through: through, then: then) }
                return
            }
            let json = JournalJSON()
            // Whole batches (the gap runs from a batch's end to the next batch's start): one entry.
            let events = entries.compactMap { try? RedisJournalKeys.decodeEvent($0, game: game, json: json) }
            let repaired = RedisFeedEntry(gameID: game, events: events, node: "").map { [$0] } ?? []
            then(repaired)
        }
    }

    private func retry(_ body: @escaping @Sendable () -> Void) {
        guard !isStopped else { return }
        let delay = configuration.retryDelay
        let scheduler = self.scheduler
        scheduler.execute { scheduler.schedule(after: delay, body) }
    }

    /// One feed entry's fields, in order: `g`, `s` (the batch's first sequence), `n`, `k` (the batch's size), then
    /// `p` and `e` per event; a creation has no `e`; an archive is `g`, `a`, `n`; a court's change is `c` (its id),
    /// `v` (its version), `r` (its JSON), `n`, and `y` (its venue's name) for a court relayed from a venue. An
    /// entry of a library before version 8 (`g`, `s`, `p`, `n`, `e`: one per event) reads as a batch of one. Nil for an entry that is not
    /// whole: its size differs from `k`, an event does not decode or is out of order (the cursor then repairs the
    /// gap from the game's stream).
    static func parse(_ values: [[UInt8]]) -> Item? {
        let json = JournalJSON()
        var game: GameID?
        var first: Int?
        var size: Int?
        var node = ""
        var presentation: Int?
        var archivedAt: Int?
        var court: (id: String, version: Int?, record: [UInt8]?)?
        var venue: String?
        var bodies: [(presentation: Int, body: [UInt8])] = []
        for index in stride(from: 0, to: values.count - 1, by: 2) {
            let value = values[index + 1]
            let text = { String(decoding: value, as: UTF8.self) }
            switch String(decoding: values[index], as: UTF8.self) {
            case "g": game = GameID(text())
            case "s": first = Int(text())
            case "n": node = text()
            case "k": size = Int(text())
            case "p": presentation = Int(text())
            case "a": archivedAt = Int(text())
            case "c": court = (text(), court?.version, court?.record)
            case "v": court = (court?.id ?? "", Int(text()), court?.record)
            case "r": court = (court?.id ?? "", court?.version, value)
            case "y": venue = text()
            case "e":
                guard let presentation else { return nil }
                bodies.append((presentation, value))
            default: continue
            }
        }
        if let court {
            guard let version = court.version, let record = court.record else { return nil }
            if let venue {
                // A venue's court (`courtside_relayed_courts`): one that is no venue's is passed over.
                guard let stored = try? RedisCourtStore.relayed(record, id: court.id, version: version, venue: venue),
                    stored.court.id.rawValue == court.id
                else { return nil }
                return .court(stored)
            }
            guard let value = try? CourtJSON.decode(record, id: court.id), value.id.rawValue == court.id
            else { return nil }
            return .court(StoredCourt(court: value, version: version))
        }
        guard let game else { return nil }
        if archivedAt != nil { return .archived(game, node: node) }
        if bodies.isEmpty { return .created(game, node: node) }
        guard let first, size ?? bodies.count == bodies.count else { return nil }
        var events: [JournaledEvent] = []
        for (offset, stored) in bodies.enumerated() {
            guard let event = try? json.decode(GameEvent.self, from: stored.body, game: game, sequence: nil),
                event.sequence == first + offset
            else { return nil }
            events.append(JournaledEvent(event, presentationSequence: stored.presentation))
        }
        return RedisFeedEntry(gameID: game, events: events, node: node).map { .event($0) }
    }

    /// The entries of an `XREAD` reply (RESP3 map or RESP2 array of `[key, entries]`); an empty list on timeout
    /// (null), nil for a reply of another shape.
    static func entries(of reply: RESPValue) -> [(id: String, item: Item)]? {
        let streams: [RESPValue]
        switch reply {
        case .null: return []
        case .map(let pairs): streams = pairs.map(\.value)
        case .array(let pairs): streams = pairs.compactMap { $0.elements?.last }
        default: return nil
        }
        var result: [(id: String, item: Item)] = []
        for stream in streams {
            for item in stream.elements ?? [] {
                guard let parts = item.elements, parts.count == 2, let id = parts[0].string,
                    let values = parts[1].elements?.compactMap(\.bytes)
                else { continue }
                result.append((id, parse(values) ?? .unreadable))
            }
        }
        return result
    }
}
