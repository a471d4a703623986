import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRedis
import CourtsideRedisJournal
import CourtsideTestSupport
import Foundation
import Testing

/// The implementations every conformance test runs against: one test body, three journals.
enum JournalKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case inMemory
    /// `RedisJournal` against a `redis-server` the harness starts (AOF, `appendfsync always`).
    case redis

    var testDescription: String { rawValue }

    /// The kinds this machine can test: Redis only when `redis-server` is installed, or under CI (where a missing
    /// one must fail). Locally without it, the Redis cases are left out with a message.
    static let tested: [JournalKind] = {
        if RedisServer.enabled { return allCases }
        print("note: redis-server is missing, the Redis journal is not tested: \(RedisServer.skipReason)")
        return allCases.filter { $0 != .redis }
    }()

    /// The loop the Redis journals' connections run on.
    static let redisLoops = try! EventLoopGroup(threadCount: 1)
}

/// A journal of one kind in a fresh temporary directory, that a test can "restart": `reopen()` closes the journal
/// and opens a new one on the same storage (the same file for SQLite, the same contents in memory).
final class JournalHarness {
    let kind: JournalKind
    let directory: String
    let configuration: SQLiteJournal.Configuration
    /// The Redis server of a `.redis` harness (its data directory is its own).
    let redis: RedisServer?
    private(set) var journal: any GameJournal

    init(_ kind: JournalKind, configuration: SQLiteJournal.Configuration = .init()) throws {
        self.kind = kind
        self.configuration = configuration
        self.directory = makeTemporaryDirectory()
        self.redis = kind == .redis ? try RedisServer() : nil
        self.journal = try Self.open(
            kind, directory: directory, configuration: configuration, redis: redis, restoring: [])
    }

    deinit {
        journal.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Closes the journal and opens it again, as a server restart would.
    func reopen() throws {
        journal.close()
        let contents = (journal as? InMemoryJournal)?.contents ?? []
        journal = try Self.open(
            kind, directory: directory, configuration: configuration, redis: redis, restoring: contents)
    }

    private static func open(
        _ kind: JournalKind, directory: String, configuration: SQLiteJournal.Configuration, redis: RedisServer?,
        restoring contents: [JournaledGame]
    ) throws -> any GameJournal {
        switch kind {
        case .sqlite: return try SQLiteJournal(directory: directory, configuration: configuration)
        case .inMemory: return InMemoryJournal(restoring: contents)
        case .redis:
            guard let redis else { preconditionFailure("Invalid state: a Redis harness without a server") }
            return try openRedis(redis)
        }
    }

    /// A Redis journal on `redis`, with the test loop.
    static func openRedis(_ redis: RedisServer, configure: (inout RedisJournal.Configuration) -> Void = { _ in })
        throws -> RedisJournal
    {
        var configuration = RedisJournal.Configuration()
        configure(&configuration)
        return try RedisJournal(
            url: RedisURL(parsing: redis.url()), loop: JournalKind.redisLoops.loops[0], configuration: configuration)
    }
}

/// A new empty directory under the system's temporary directory.
func makeTemporaryDirectory() -> String {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("courtside-journal-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func at(_ ms: Int64) -> Timestamp {
    Timestamp(milliseconds: ms)
}

func makeSetup(_ id: GameID = "g1", rules: Rules = .pickup) -> GameSetup {
    try! GameSetup(
        id: id, homeTeam: "Hawks", homePlayers: ["Ann", "Bo", "Cy"], awayTeam: "Owls",
        awayPlayers: ["Di", "Ed", "Fay"], rules: rules)
}

/// A game record whose token hash is 32 bytes derived from the id (any 32 bytes will do: the journal stores it).
func makeRecord(_ setup: GameSetup, createdAt: Int64 = 1_700_000_000_000, metadata: [String: String] = [:])
    -> GameRecord
{
    let seed = UInt8(truncatingIfNeeded: setup.id.rawValue.utf8.reduce(0) { $0 &+ Int($1) })
    let hash = (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(seed)) }
    return GameRecord(setup: setup, scorerTokenSHA256: hash, createdAt: at(createdAt), metadata: metadata)
}

/// A move event for `game`'s next sequence, with command id `c<sequence>`.
func moveEvent(sequence: Int, at ms: Int64 = 0, commandID: CommandID? = nil) -> GameEvent {
    GameEvent(
        sequence: sequence, at: at(ms), commandID: commandID ?? CommandID("c\(sequence)"),
        kind: .move(player: PlayerID(side: .home, index: 0), move: .rebound))
}

/// Journaled moves `range`, the presentation sequence equal to the event's.
func moves(_ range: ClosedRange<Int>) -> [JournaledEvent] {
    range.map { JournaledEvent(moveEvent(sequence: $0, at: Int64($0)), presentationSequence: $0) }
}

/// Runs `body` and returns the journal error it threw, recording an issue when it threw none (or another error).
func journalError(_ body: () throws(JournalError) -> Void) -> JournalError? {
    do {
        try body()
        Issue.record("expected a JournalError, got success")
        return nil
    } catch {
        return error
    }
}
