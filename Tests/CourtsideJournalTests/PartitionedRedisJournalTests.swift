import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideRedisJournal
import CourtsideTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// `PartitionedRedisJournal` over two real `redis-server`s: the partition check at start, where new games go, and
/// that every write reaches its game's own Redis.
@Suite(
    "Partitioned Redis journal", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct PartitionedRedisJournalTests {
    func open(_ servers: [RedisServer], node: String = "A") throws -> [RedisJournal] {
        try servers.map { server in try JournalHarness.openRedis(server) { $0.nodeID = node } }
    }

    /// Waits (bounded) for an asynchronous answer.
    func wait<T: Sendable>(_ start: (@escaping @Sendable (T) -> Void) -> Void) throws -> T {
        let answer = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { value in
            answer.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + .seconds(10)) == .success, let value = answer.withLock({ $0 }) else {
            throw NoAnswer()
        }
        return value
    }

    @Test("the list is claimed at first start; reordered, shrunk or with a server twice it is refused, naming it")
    func partitionCheck() throws {
        let first = try RedisServer()
        let second = try RedisServer()
        let journals = try open([first, second])
        defer { for journal in journals { journal.close() } }
        _ = try PartitionedRedisJournal(partitions: journals)
        // The same list again (another node, a restart) is accepted.
        _ = try PartitionedRedisJournal(partitions: journals)

        let reordered = #expect(throws: RedisPartitionError.self) {
            try PartitionedRedisJournal(partitions: journals.reversed())
        }
        #expect(
            reordered
                == .otherIndex(url: journals[1].url.description, configured: 0, stored: 1, storedSize: 2))
        #expect(reordered?.description.contains("is listed as partition 0 but stores partition 1 of 2") == true)
        let shrunk = #expect(throws: RedisPartitionError.self) {
            try PartitionedRedisJournal(partitions: [journals[0]])
        }
        #expect(shrunk == .shrunk(url: journals[0].url.description, configured: 1, storedSize: 2))
        let twice = #expect(throws: RedisPartitionError.self) {
            try PartitionedRedisJournal(partitions: [journals[0], journals[0]])
        }
        #expect(twice == .duplicate(url: journals[0].url.description))

        // The list may grow: a third server is appended, and the first two now record a list of three.
        let third = try RedisServer()
        let added = try open([third])[0]
        defer { added.close() }
        _ = try PartitionedRedisJournal(partitions: journals + [added])
        #expect(throws: RedisPartitionError.self) { try PartitionedRedisJournal(partitions: journals) }
    }

    @Test("new games alternate between two empty partitions, carry their partition in the id and are stored there")
    func gamesLandOnBothPartitions() throws {
        let servers = [try RedisServer(), try RedisServer()]
        let journals = try open(servers)
        let partitioned = try PartitionedRedisJournal(partitions: journals)
        defer { partitioned.close() }
        var ids: [GameID] = []
        for _ in 0..<4 {
            let id = try wait { partitioned.nextGameID(completion: $0) }.get()
            try partitioned.createGame(makeRecord(makeSetup(id)))
            ids.append(id)
        }
        #expect(ids == ["game-1", "game-1-1", "game-2", "game-1-2"])
        try partitioned.append([JournaledEvent(moveEvent(sequence: 1), presentationSequence: 1)], toGame: "game-1-1")
        // Each Redis holds only its own games.
        #expect(try journals[0].loadGames().map(\.id) == ["game-1", "game-2"])
        #expect(try journals[1].loadGames().map(\.id) == ["game-1-1", "game-1-2"])
        #expect(try journals[1].loadGames().first?.events.count == 1)
        // The union, partition 0 first, as a restarted node loads it.
        #expect(try partitioned.loadGames().map(\.id) == ["game-1", "game-2", "game-1-1", "game-1-2"])

        // A malformed id, or one of a partition that does not exist, reaches no Redis: the game is unknown.
        for id: GameID in ["game-2-1", "game-0-1", "g1"] {
            #expect(throws: JournalError.unknownGame(id)) {
                try partitioned.append([JournaledEvent(moveEvent(sequence: 1), presentationSequence: 1)], toGame: id)
            }
        }
    }

    @Test("with one partition down, new games go to the other; with a single Redis ids stay game-N")
    func creationSkipsADeadPartition() throws {
        let servers = [try RedisServer(), try RedisServer()]
        let partitioned = try PartitionedRedisJournal(partitions: try open(servers))
        defer { partitioned.close() }
        servers[0].kill9()
        for expected: GameID in ["game-1-1", "game-1-2"] {
            #expect(try wait { partitioned.nextGameID(completion: $0) }.get() == expected)
        }
        servers[1].kill9()
        #expect(throws: JournalError.self) { try wait { partitioned.nextGameID(completion: $0) }.get() }

        let alone = try RedisServer()
        let single = try PartitionedRedisJournal(partitions: try open([alone]))
        defer { single.close() }
        #expect(try wait { single.nextGameID(completion: $0) }.get() == "game-1")
        #expect(try wait { single.nextGameID(completion: $0) }.get() == "game-2")
    }
}

/// An asynchronous answer did not come within its deadline.
struct NoAnswer: Error {}
