import CourtsideModel
import CourtsideTestSupport
import Foundation
import Testing

@testable import CourtsideJournal

@Suite("SQLite journal: durability settings and integrity at open", .ownThread)
struct SQLiteJournalIntegrityTests {
    @Test("the live connection runs with synchronous=FULL, WAL and foreign keys (read back from SQLite)")
    func liveSettings() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try SQLiteJournal(directory: directory)
        defer { journal.close() }
        try journal.createGame(makeRecord(makeSetup()))
        let settings = try journal.settings()
        #expect(settings.synchronous == SQLiteJournalSettings.synchronousFull)
        #expect(settings.journalMode == "wal")
        #expect(settings.foreignKeys)
    }

    @Test("a journal whose pages are damaged is refused at open by PRAGMA quick_check, naming the file")
    func damagedPagesRefused() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path: String
        do {
            let journal = try SQLiteJournal(directory: directory)
            path = journal.path
            for index in 0..<60 { try journal.createGame(makeRecord(makeSetup(GameID("g\(index)")))) }
            journal.close()  // checkpoints the WAL into the file
        }
        // Zero the last page: a b-tree page of games or their index, which nothing reads before quick_check.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try handle.seekToEnd()
        let pageSize: UInt64 = 4096
        #expect(size >= 4 * pageSize)
        try handle.seek(toOffset: size - pageSize)
        handle.write(Data(repeating: 0, count: Int(pageSize)))
        try handle.close()

        let error = journalError { () throws(JournalError) in _ = try SQLiteJournal(directory: directory) }
        guard case .cannotOpen(let reportedPath, _)? = error else {
            guard case .integrityCheckFailed(let reportedPath, let problems)? = error else {
                Issue.record("expected integrityCheckFailed, got \(String(describing: error))")
                return
            }
            #expect(reportedPath == path)
            #expect(!problems.isEmpty && problems.count <= SQLiteJournalSchema.quickCheckProblemLimit)
            #expect("\(error!)".contains(".recover"))
            return
        }
        Issue.record("the damage surfaced as cannotOpen(\(reportedPath)) before quick_check ran")
    }

    @Test("an intact journal passes the check and opens")
    func intactOpens() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let journal = try SQLiteJournal(directory: directory)
            for index in 0..<60 { try journal.createGame(makeRecord(makeSetup(GameID("g\(index)")))) }
            journal.close()
        }
        let reopened = try SQLiteJournal(directory: directory)
        defer { reopened.close() }
        #expect(try reopened.loadGames().count == 60)
    }
}
