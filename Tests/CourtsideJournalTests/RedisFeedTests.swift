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
    func entry(_ game: GameID, _ sequence: Int, node: String = "other") -> RedisFeedEntry {
        RedisFeedEntry(
            gameID: game, event: JournaledEvent(moveEvent(sequence: sequence), presentationSequence: sequence),
            node: node)
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
}

/// Collects deliveries from the tailer's loop and waits for a count with a deadline.
final class Deliveries: Sendable {
    private let entries = Mutex<[RedisFeedEntry]>([])

    func add(_ batch: [RedisFeedEntry]) { entries.withLock { $0 += batch } }

    var all: [RedisFeedEntry] { entries.withLock { $0 } }

    func wait(for count: Int, within timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while all.count < count && ContinuousClock.now < deadline { usleep(5_000) }
        return all.count >= count
    }
}

@Suite(
    "Redis feed tailer against a real redis-server", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct RedisFeedTailerTests {
    /// Waits (bounded) until a feed tailer's connection is blocked in `XREAD`.
    func waitUntilReading(_ probe: RedisClient) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let clients = try probe.sendAndWait(RESPCommand("CLIENT", "LIST")).string ?? ""
            if clients.split(separator: "\n").contains(where: {
                $0.contains("name=courtside-feed") && $0.contains("cmd=xread")
            }) {
                return
            }
            usleep(10_000)
        }
        Issue.record("no tailer blocked in XREAD within 10 s")
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
        #expect(deliveries.wait(for: 3))
        #expect(deliveries.all.map { "\($0.gameID)/\($0.event.event.sequence)" } == ["g1/2", "g1/3", "g2/2"])
        #expect(deliveries.all[0].event == moves(2...2)[0] && deliveries.all[0].node == "A")

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
        #expect(resumed.wait(for: 3))
        #expect(resumed.all.map(\.event.event.sequence) == [4, 5, 6], "4 and 5 repaired from the game's stream")
    }
}
