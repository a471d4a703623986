import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRedis
import CourtsideRedisClient
import CourtsideRedisJournal
import CourtsideTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite("Redis feed cursor")
struct RedisFeedCursorTests {
    /// A whole batch of `game`'s events `sequences`, shown under the presentation sequence of its first.
    func entry(_ game: GameID, _ sequences: ClosedRange<Int>, node: String = "other") -> RedisFeedEntry {
        let events = sequences.map {
            JournaledEvent(moveEvent(sequence: $0), presentationSequence: sequences.lowerBound)
        }
        return RedisFeedEntry(gameID: game, events: events, node: node)!
    }

    func entry(_ game: GameID, _ sequence: Int, node: String = "other") -> RedisFeedEntry {
        entry(game, sequence...sequence, node: node)
    }

    @Test("delivers other nodes' entries, skips its own and repeats, and asks for a repair at a gap")
    func trace() {
        var cursor = RedisFeedCursor(node: "me", after: "0-0")
        cursor.know("a", through: 2)
        #expect(cursor.accept(entry("a", 3), id: "1-0") == .deliver(entry("a", 3)))
        #expect(cursor.lastID == "1-0")
        #expect(cursor.accept(entry("a", 4, node: "me"), id: "2-0") == .skipOwn)
        #expect(cursor.accept(entry("a", 4), id: "3-0") == .skipDuplicate)
        #expect(cursor.accept(entry("a", 7), id: "4-0") == .repair("a", from: 5, through: 6, then: entry("a", 7)))
        #expect(cursor.lastSequence(of: "a") == 7)
        // A game never seen is delivered from whatever arrives: the application decides whether it holds it.
        #expect(cursor.accept(entry("b", 9), id: "5-0") == .deliver(entry("b", 9)))
        #expect(cursor.accept(entry("b", 10), id: "6-0") == .deliver(entry("b", 10)))
        cursor.move(after: "9-0")
        #expect(cursor.lastID == "9-0")
    }

    @Test("a batch is decided whole: its last sequence is remembered, a repair stops before its first")
    func wholeBatches() {
        var cursor = RedisFeedCursor(node: "me", after: "0-0")
        cursor.know("a", through: 2)
        #expect(cursor.accept(entry("a", 3...4), id: "1-0") == .deliver(entry("a", 3...4)))
        #expect(cursor.lastSequence(of: "a") == 4)
        #expect(cursor.accept(entry("a", 3...4), id: "2-0") == .skipDuplicate, "the same batch read again")
        #expect(cursor.accept(entry("a", 5...6, node: "me"), id: "3-0") == .skipOwn)
        #expect(cursor.lastSequence(of: "a") == 6)
        #expect(
            cursor.accept(entry("a", 9...10), id: "4-0") == .repair("a", from: 7, through: 8, then: entry("a", 9...10)))
        #expect(cursor.lastSequence(of: "a") == 10)
    }

    @Test("an entry is a batch only when it holds events with contiguous sequences")
    func entryShape() {
        #expect(RedisFeedEntry(gameID: "a", events: [], node: "x") == nil)
        let gap = [moves(1...1)[0], moves(3...3)[0]]
        #expect(RedisFeedEntry(gameID: "a", events: gap, node: "x") == nil)
        let whole = RedisFeedEntry(gameID: "a", events: moves(4...6), node: "x")
        #expect(whole?.firstSequence == 4 && whole?.lastSequence == 6)
    }
}

/// Collects deliveries from the tailer's loop and waits for a count with a deadline.
final class Deliveries: Sendable {
    private let entries = Mutex<[RedisFeedEntry]>([])

    func add(_ batch: [RedisFeedEntry]) { entries.withLock { $0 += batch } }

    var all: [RedisFeedEntry] { entries.withLock { $0 } }

    func wait(for count: Int, within timeout: Duration = .seconds(10)) -> Bool {
        eventually(within: timeout, every: .milliseconds(5)) { all.count >= count }
    }
}

@Suite(
    "Redis feed tailer against a real redis-server", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct RedisFeedTailerTests {
    /// Waits (bounded) until a feed tailer's connection is blocked in `XREAD`.
    func waitUntilReading(_ probe: RedisClient) throws {
        let reading = try eventually {
            let clients = try probe.sendAndWait(RESPCommand("CLIENT", "LIST")).string ?? ""
            return clients.split(separator: "\n").contains {
                $0.contains("name=courtside-feed") && $0.contains("cmd=xread")
            }
        }
        if !reading { Issue.record("no tailer blocked in XREAD within 10 s") }
    }

    @Test("node B's tailer gets node A's events in order and none of its own; missed events are repaired")
    func tailsOtherNodes() throws {
        let redis = try RedisServer()
        let url = try RedisURL(parsing: redis.url())
        let nodeA = try JournalHarness.openRedis(redis) { $0.nodeID = "A" }
        let nodeB = try JournalHarness.openRedis(redis) { $0.nodeID = "B" }
        defer {
            nodeA.close()
            nodeB.close()
        }
        try nodeA.createGame(makeRecord(makeSetup("g1")))
        try nodeA.createGame(makeRecord(makeSetup("g2")))
        try nodeA.append(moves(1...1), toGame: "g1")  // before the tailer starts: not delivered
        let deliveries = Deliveries()
        let tailer = try RedisFeedTailer(url: url, loop: JournalKind.redisLoops.loops[0], node: "B") {
            deliveries.add($0)
        }
        defer { tailer.stop() }
        tailer.know("g1", through: 1)
        tailer.start()
        // The tailer reads from the feed's end once its first reply is in; wait until it is blocked in XREAD.
        let probe = try RedisClient(url: url, loop: JournalKind.redisLoops.loops[0])
        defer { probe.close() }
        try waitUntilReading(probe)
        try nodeA.append(moves(2...3), toGame: "g1")
        try nodeB.append(moves(1...1), toGame: "g2")  // B's own write: skipped
        try nodeA.append(moves(2...2), toGame: "g2")
        #expect(deliveries.wait(for: 2))
        #expect(deliveries.all.map { "\($0.gameID)/\($0.firstSequence)-\($0.lastSequence)" } == ["g1/2-3", "g2/2-2"])
        #expect(deliveries.all[0].events == moves(2...3) && deliveries.all[0].node == "A", "one batch, whole")

        // A gap: this tailer stops; events 4 and 5 go by; a new tailer (a restarted node that loaded 1...3) starts at
        // the feed's end and reads 6 first: it repairs 4 and 5 from the game's stream before delivering 6.
        tailer.stop()
        try nodeA.append(moves(4...5), toGame: "g1")
        let resumed = Deliveries()
        let second = try RedisFeedTailer(url: url, loop: JournalKind.redisLoops.loops[0], node: "B") {
            resumed.add($0)
        }
        defer { second.stop() }
        second.know("g1", through: 3)
        second.start()
        try waitUntilReading(probe)
        try nodeA.append(moves(6...6), toGame: "g1")
        #expect(resumed.wait(for: 2))
        #expect(resumed.all.flatMap(\.events) == moves(4...6), "4 and 5 repaired from the game's stream")
        #expect(
            resumed.all.map(\.events.count) == [2, 1], "the repaired batch whole, then the entry that showed the gap")
    }

    @Test("a failed read is retried after retryDelay on the tailer's scheduler, not before (time driven by hand)")
    func retryWaitsOnTheScheduler() throws {
        let redis = try RedisServer()
        let url = try RedisURL(parsing: redis.url())
        let probe = try RedisClient(url: url, loop: JournalKind.redisLoops.loops[0])
        defer { probe.close() }
        // The feed's key holding a string: every stream command on it fails (WRONGTYPE) until it is deleted.
        let feedKey = "courtside:feed"
        _ = try probe.sendAndWait(RESPCommand("SET", .string(feedKey), "not a stream"))
        let scheduler = ManualScheduler()
        var configuration = RedisFeedTailer.Configuration()
        configuration.retryDelay = .milliseconds(200)
        let deliveries = Deliveries()
        let tailer = try RedisFeedTailer(
            url: url, loop: JournalKind.redisLoops.loops[0], node: "B", configuration: configuration,
            scheduler: scheduler
        ) { deliveries.add($0) }
        defer { tailer.stop() }
        tailer.start()
        // The first read failed: its retry is handed to the scheduler, which arms it for `retryDelay`.
        try #require(eventually { scheduler.queuedTaskCount == 1 }, "the failed read was never retried")
        scheduler.run()
        #expect(scheduler.scheduledTimerCount == 1)
        #expect(scheduler.nextDeadline == scheduler.now + .milliseconds(200))
        scheduler.advance(by: .milliseconds(199))
        #expect(scheduler.scheduledTimerCount == 1, "retried before its delay")
        #expect(scheduler.queuedTaskCount == 0)
        // The store heals; the retry, once due, starts reading and the tailer follows node A.
        _ = try probe.sendAndWait(RESPCommand("DEL", .string(feedKey)))
        let nodeA = try JournalHarness.openRedis(redis) { $0.nodeID = "A" }
        defer { nodeA.close() }
        try nodeA.createGame(makeRecord(makeSetup("g1")))
        tailer.know("g1", through: 0)
        scheduler.advance(by: .milliseconds(1))
        #expect(scheduler.scheduledTimerCount == 0)
        try waitUntilReading(probe)
        try nodeA.append(moves(1...2), toGame: "g1")
        #expect(deliveries.wait(for: 1))
        #expect(deliveries.all.flatMap(\.events) == moves(1...2))
        #expect(scheduler.queuedTaskCount == 0, "no read failed after the store healed")
    }

    /// `count` two-event batches of `game` from sequence 1, each shown under its first event's number.
    func pairs(_ count: Int) -> [[JournaledEvent]] {
        (0..<count).map { index in
            let first = 2 * index + 1
            return [first, first + 1].map {
                JournaledEvent(moveEvent(sequence: $0, at: Int64($0)), presentationSequence: index + 1)
            }
        }
    }

    /// Node A's journal holding game g1, and node B's tailer positioned at the feed's end (not started yet), with
    /// what it delivers.
    func gameAndTailer(
        _ redis: RedisServer, _ configuration: RedisFeedTailer.Configuration = RedisFeedTailer.Configuration()
    ) throws -> (RedisJournal, RedisFeedTailer, Deliveries) {
        let nodeA = try JournalHarness.openRedis(redis) { $0.nodeID = "A" }
        try nodeA.createGame(makeRecord(makeSetup("g1")))
        let deliveries = Deliveries()
        let tailer = try RedisFeedTailer(
            url: RedisURL(parsing: redis.url()), loop: JournalKind.redisLoops.loops[0], node: "B",
            configuration: configuration
        ) { deliveries.add($0) }
        try tailer.markEnd()
        tailer.know("g1", through: 0)
        return (nodeA, tailer, deliveries)
    }

    @Test("a backlog read a few entries at a time arrives in whole batches, none cut between two reads")
    func backlogInWholeBatches() throws {
        let redis = try RedisServer()
        var configuration = RedisFeedTailer.Configuration()
        configuration.count = 3  // an odd count: a feed of one entry per event would cut every third batch
        let (nodeA, tailer, deliveries) = try gameAndTailer(redis, configuration)
        defer {
            tailer.stop()
            nodeA.close()
        }
        let batches = pairs(40)
        for batch in batches { try nodeA.append(batch, toGame: "g1") }
        tailer.start()
        #expect(deliveries.wait(for: batches.count))
        #expect(deliveries.all.map(\.events) == batches)
    }

    @Test("feed entries of the format before whole batches (one per event) are read as batches of one")
    func olderFormatRead() throws {
        let redis = try RedisServer()
        let url = try RedisURL(parsing: redis.url())
        let (nodeA, tailer, deliveries) = try gameAndTailer(redis)
        defer {
            tailer.stop()
            nodeA.close()
        }
        let client = try RedisClient(url: url, loop: JournalKind.redisLoops.loops[0])
        defer { client.close() }
        let json = JournalJSON()
        for journaled in moves(1...2) {
            let body = try json.encode(journaled.event, game: "g1")
            _ = try client.sendAndWait(
                RESPCommand(
                    "XADD", "courtside:feed", "*", "g", "g1", "s", .integer(journaled.event.sequence), "p",
                    .integer(journaled.presentationSequence), "n", "old", "e", .string(body)))
        }
        // Not whole (its size says 2, it holds 1): passed over, never delivered as half a batch.
        _ = try client.sendAndWait(
            RESPCommand(
                "XADD", "courtside:feed", "*", "g", "g1", "s", "3", "n", "A", "k", "2", "p", "3", "e",
                .string(try json.encode(moveEvent(sequence: 3, at: 3), game: "g1"))))
        tailer.start()
        #expect(deliveries.wait(for: 2))
        #expect(deliveries.all.map(\.events) == [moves(1...1), moves(2...2)])
        #expect(deliveries.all.map(\.node) == ["old", "old"])
    }
}
