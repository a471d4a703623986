import CourtsideModel
import CourtsideTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import CourtsideJournal

/// Crash simulation without killing anything: with automatic checkpoints off, the database file does not change
/// after creation and the WAL only grows, so a copy of the two files taken at any moment is what `kill -9` at that
/// moment would leave on disk (the kernel keeps a killed process's writes). Opening the copy runs SQLite's
/// recovery exactly as a restart after a crash would. (Power loss is the fsync's job: `synchronous=FULL`.)
@Suite("SQLite journal: crash images", .ownThread)
struct CrashImageTests {
    static var crashConfiguration: SQLiteJournal.Configuration {
        var configuration = SQLiteJournal.Configuration()
        configuration.autoCheckpointPages = 0
        return configuration
    }

    /// Copies the database and its WAL (not the shared-memory index, which SQLite rebuilds) to a new directory.
    static func crashImage(of directory: String) throws -> String {
        let image = makeTemporaryDirectory()
        let name = SQLiteJournal.Configuration().fileName
        for file in [name, name + "-wal"] {
            let source = (directory as NSString).appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: source) else { continue }
            try FileManager.default.copyItem(atPath: source, toPath: (image as NSString).appendingPathComponent(file))
        }
        return image
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test("an uncommitted transaction, even spilled into the WAL, is not visible after a crash")
    func uncommittedTransactionInvisible() throws {
        let harness = try JournalHarness(.sqlite, configuration: Self.crashConfiguration)
        try harness.journal.createGame(makeRecord(makeSetup()))
        try harness.journal.append(moves(1...3), toGame: "g1")
        let path = try #require((harness.journal as? SQLiteJournal)?.path)
        let walBefore = Self.fileSize(path + "-wal")

        // Another connection writes a large transaction and "dies" before COMMIT. A tiny page cache makes SQLite
        // spill the uncommitted pages into the WAL, so the image really holds them.
        let raw = try SQLiteConnection(path: path)
        defer { raw.close() }
        try raw.execute("PRAGMA cache_size = 8")
        try raw.execute("BEGIN IMMEDIATE")
        let insert = try raw.prepare(
            "INSERT INTO events (game_id, seq, presentation_seq, command_id, at_ms, event_json) VALUES ('g1', ?, ?, NULL, 0, ?)"
        )
        defer { insert.finalize() }
        let padding = String(repeating: "x", count: 2_000)
        for sequence in 4...300 {
            let json = "{\"seq\":\(sequence),\"at\":0,\"type\":\"timeLimitReached\",\"pad\":\"\(padding)\"}"
            try insert.run([.integer(Int64(sequence)), .integer(Int64(sequence)), .text(json)])
        }
        #expect(Self.fileSize(path + "-wal") > walBefore + 100_000, "the uncommitted pages reached the WAL")
        let image = try Self.crashImage(of: harness.directory)
        defer { try? FileManager.default.removeItem(atPath: image) }
        try raw.execute("ROLLBACK")

        let restarted = try SQLiteJournal(directory: image)
        defer { restarted.close() }
        #expect(try restarted.loadGames().map(\.events) == [moves(1...3)])
        try restarted.append(moves(4...4), toGame: "g1")
        #expect(try restarted.loadGames()[0].lastEventSequence == 4)
    }

    @Test("every write whose completion was called is in a crash image taken afterwards, mid-stream")
    func completedWritesSurviveCrashImages() throws {
        let harness = try JournalHarness(.sqlite, configuration: Self.crashConfiguration)
        let journal = harness.journal
        let games = (0..<4).map { GameID("game-\($0)") }
        for id in games {
            try journal.createGame(makeRecord(makeSetup(id)))
        }
        let eventsPerGame = 400
        let acked = Mutex<[GameID: Int]>([:])
        let log = CompletionLog()
        DispatchQueue.global().async {
            for sequence in 1...eventsPerGame {
                // Paced like a busy server rather than all at once, so the images catch the stream at many points.
                if sequence % 10 == 0 { usleep(1_000) }
                for id in games {
                    let record = log.completion(for: "\(id)/\(sequence)")
                    journal.append(moves(sequence...sequence), toGame: id) { result in
                        if case .success = result {
                            acked.withLock { $0[id] = max($0[id] ?? 0, sequence) }
                        }
                        record(result)
                    }
                }
            }
        }
        // An image each time another 200 writes were acked, while the rest are still being written.
        var images: [(acked: [GameID: Int], path: String)] = []
        let deadline = Date().addingTimeInterval(30)
        for threshold in stride(from: 100, to: games.count * eventsPerGame, by: 200) {
            var ackedBefore: [GameID: Int] = [:]
            while Date() < deadline {
                // Read the acks first: the image is taken after each of them was reported durable.
                ackedBefore = acked.withLock { $0 }
                if ackedBefore.values.reduce(0, +) >= threshold { break }
                usleep(500)
            }
            images.append((ackedBefore, try Self.crashImage(of: harness.directory)))
        }
        defer { for image in images { try? FileManager.default.removeItem(atPath: image.path) } }
        #expect(log.wait(for: games.count * eventsPerGame))
        #expect(log.failures.isEmpty)

        for (index, image) in images.enumerated() {
            let restarted = try SQLiteJournal(directory: image.path)
            defer { restarted.close() }
            let loaded = try restarted.loadGames()
            #expect(loaded.map(\.id) == games, "image \(index)")
            for game in loaded {
                let ackedSequence = image.acked[game.id] ?? 0
                #expect(game.lastEventSequence >= ackedSequence, "image \(index), \(game.id): acked \(ackedSequence)")
                #expect(game.events == Array(moves(1...eventsPerGame).prefix(game.lastEventSequence)))
                #expect(throws: Never.self) { try game.replayed() }
            }
        }
        let lastAcked = images.last?.acked.values.reduce(0, +) ?? 0
        #expect(lastAcked >= 1_500, "the acks kept coming while the images were taken")
    }
}
