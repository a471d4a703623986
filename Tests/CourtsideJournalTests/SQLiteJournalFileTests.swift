import CSQLite
import CourtsideModel
import CourtsideTestSupport
import Foundation
import Testing

@testable import CourtsideJournal

@Suite("SQLite journal: files, schema and errors", .ownThread)
struct SQLiteJournalFileTests {
    @Test("the database file and its WAL are created with mode 0600")
    func fileModes() throws {
        let harness = try JournalHarness(.sqlite)
        try harness.journal.createGame(makeRecord(makeSetup()))
        let path = try #require((harness.journal as? SQLiteJournal)?.path)
        for file in [path, path + "-wal", path + "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
            #expect(mode == 0o600, "\(file)")
        }
    }

    @Test("the courts' database and its WAL and shared-memory files are created with mode 0600 too")
    func courtStoreFileModes() throws {
        let directory = makeTemporaryDirectory() + "/data"
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let store = try SQLiteCourtStore(directory: directory)
        defer { store.close() }
        let saved = CompletionWaiter<Result<Void, CourtStoreError>>()
        store.save(try Court(id: CourtID(rawValue: "court-1"), name: "Park")) { saved.complete(.success($0)) }
        try saved.wait().get().get()
        let path = directory + "/" + SQLiteCourtStore.fileName
        var modes: [String: Int] = [:]
        for file in [directory, path, path + "-wal", path + "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            modes[file] = (attributes[.posixPermissions] as? NSNumber)?.intValue
        }
        #expect(modes[directory] == 0o700)
        #expect(modes[path] == 0o600)
        #expect(modes[path + "-wal"] == 0o600)
        #expect(modes[path + "-shm"] == 0o600)
    }

    @Test("a file that is not a database gives .notADatabase naming the file")
    func notADatabase() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent(SQLiteJournal.Configuration().fileName)
        let garbage = String(repeating: "this is not a database, it is a grocery list\n", count: 200)
        try garbage.write(toFile: path, atomically: false, encoding: .utf8)
        let error = journalError { () throws(JournalError) in _ = try SQLiteJournal(directory: directory) }
        guard case .notADatabase(let reportedPath, let failure) = error else {
            Issue.record("expected notADatabase, got \(String(describing: error))")
            return
        }
        #expect(reportedPath == path)
        #expect(failure.code == SQLITE_NOTADB)
        #expect("\(error!)".contains(path))
    }

    @Test("a directory that cannot be created is reported with its path and errno")
    func cannotCreateDirectory() {
        let error = journalError { () throws(JournalError) in
            _ = try SQLiteJournal(directory: "/proc/courtside-cannot-exist/data")
        }
        guard case .cannotCreate(let path, let operation, let code) = error else {
            Issue.record("expected cannotCreate, got \(String(describing: error))")
            return
        }
        #expect(path == "/proc/courtside-cannot-exist/data")
        #expect(operation == "mkdir")
        #expect(code != 0)
    }

    @Test("a database from a newer schema version is refused, not written")
    func schemaTooNew() throws {
        let harness = try JournalHarness(.sqlite)
        let path = try #require((harness.journal as? SQLiteJournal)?.path)
        harness.journal.close()
        let raw = try SQLiteConnection(path: path)
        #expect(try SQLiteJournalSchema.userVersion(raw) == SQLiteJournalSchema.currentVersion)
        try raw.execute("PRAGMA user_version = 99")
        raw.close()
        let error = journalError { () throws(JournalError) in _ = try SQLiteJournal(directory: harness.directory) }
        #expect(error == .schemaTooNew(path: path, found: 99, supported: SQLiteJournalSchema.currentVersion))
    }

    @Test("the database itself refuses a gap or a duplicate command id, whoever writes")
    func databaseConstraints() throws {
        let harness = try JournalHarness(.sqlite)
        try harness.journal.createGame(makeRecord(makeSetup()))
        try harness.journal.append(moves(1...2), toGame: "g1")
        let path = try #require((harness.journal as? SQLiteJournal)?.path)
        let raw = try SQLiteConnection(path: path)
        defer { raw.close() }
        let insert = try raw.prepare(
            "INSERT INTO events (game_id, seq, presentation_seq, command_id, at_ms, event_json) VALUES (?, ?, ?, ?, 0, '{}')"
        )
        defer { insert.finalize() }
        for (sequence, command) in [(5, "fresh"), (2, "fresh"), (3, "c1")] {
            let error = journalError { () throws(JournalError) in
                try insert.run([.text("g1"), .integer(Int64(sequence)), .integer(9), .text(command)])
            }
            guard case .sqlite(let failure) = error else {
                Issue.record("seq \(sequence) \(command): expected an SQLite error, got \(String(describing: error))")
                continue
            }
            #expect(failure.code == SQLITE_CONSTRAINT, "\(failure)")
        }
        #expect(try harness.journal.loadGames()[0].events == moves(1...2))
    }

    @Test("while another process holds the write lock, writes fail with SQLITE_BUSY after the timeout, storing nothing")
    func busyDatabase() throws {
        var configuration = SQLiteJournal.Configuration()
        configuration.busyTimeoutMs = 50
        let harness = try JournalHarness(.sqlite, configuration: configuration)
        let journal = try #require(harness.journal as? SQLiteJournal)
        try journal.createGame(makeRecord(makeSetup()))
        let raw = try SQLiteConnection(path: journal.path)
        defer { raw.close() }
        try raw.execute("BEGIN IMMEDIATE")
        let error = journalError { () throws(JournalError) in try journal.append(moves(1...1), toGame: "g1") }
        guard case .sqlite(let failure) = error else {
            Issue.record("expected an SQLite error, got \(String(describing: error))")
            return
        }
        #expect(failure.code == SQLITE_BUSY)
        #expect(failure.operation == "BEGIN IMMEDIATE")
        #expect(journal.statistics.failedWrites == 1)
        try raw.execute("ROLLBACK")
        try journal.append(moves(1...1), toGame: "g1")
        #expect(try journal.loadGames()[0].events == moves(1...1))
    }
}
