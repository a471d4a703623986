import Foundation

/// The embedded `GameJournal`: one SQLite database in WAL mode with `synchronous=FULL`, written by a dedicated
/// thread with group commit (see `SQLiteJournalWriter` and docs/journal.md).
///
/// The connection is opened on the writer thread and never leaves it: `submit` only queues, `loadGames()` queues a
/// read and waits for it. Completions run on the writer thread, after the commit's fsync returned.
/// Call `close()` before exit to finish the queued writes (dropping the last reference closes too).
public final class SQLiteJournal: GameJournal {
    /// Tuning; every default is what the server uses.
    public struct Configuration: Sendable, Hashable {
        /// The database's file name inside the data directory (SQLite adds `-wal` and `-shm` beside it).
        public var fileName = "courtside.sqlite3"
        /// How long a statement waits for a lock another process holds (a backup, the `sqlite3` shell) before
        /// failing with SQLITE_BUSY. 5 s rides out a short backup without stalling the writer for long.
        public var busyTimeoutMs: Int32 = 5_000
        /// The most writes one transaction commits. A group waits for its whole commit, so this bounds the delay a
        /// burst adds to the first ack; 1,024 writes take a few milliseconds, far below a human's notice, and
        /// already share one fsync.
        public var maxWritesPerTransaction = 1_024
        /// WAL pages after which SQLite checkpoints; nil keeps SQLite's default (1,000 pages). Tests set 0 (never)
        /// so that a copy of the files is a faithful image of a crash.
        public var autoCheckpointPages: Int?

        public init() {}
    }

    /// The database file's path.
    public let path: String
    private let writer: SQLiteJournalWriter

    /// Opens (creating when missing) the journal in `directory` (created with mode 0700 when missing; its parent
    /// must exist). A new database file is created with mode 0600: it holds the scorer-token hashes.
    public init(directory: String, configuration: Configuration = Configuration()) throws(JournalError) {
        let path = (directory as NSString).appendingPathComponent(configuration.fileName)
        try SQLiteConnection.createPrivateFiles(directory: directory, path: path)
        self.path = path
        let writer = SQLiteJournalWriter(maxWritesPerTransaction: configuration.maxWritesPerTransaction)
        self.writer = writer
        let opened = CompletionWaiter<Void>()
        let thread = Thread {
            let store: SQLiteJournalStore
            do throws(JournalError) {
                store = try SQLiteJournalStore(
                    path: path, busyTimeoutMs: configuration.busyTimeoutMs,
                    autoCheckpointPages: configuration.autoCheckpointPages)
            } catch {
                writer.abandon()
                opened.complete(.failure(error))
                return
            }
            opened.complete(.success(()))
            writer.run(store)
        }
        thread.name = "courtside-journal"
        thread.start()
        try opened.wait().get()
    }

    deinit {
        writer.close()
    }

    /// What the writer has done since the journal opened.
    public var statistics: JournalStatistics {
        writer.statistics
    }

    public func submit(_ write: JournalWrite, completion: @escaping JournalCompletion) {
        if !writer.enqueue(.write(write, completion)) {
            completion(.failure(.closed))
        }
    }

    public func loadGames() throws(JournalError) -> [JournaledGame] {
        try loadContents().gamesOrFirstError()
    }

    /// Every game, with those whose rows cannot be read back set aside (`JournalContents.quarantined`).
    public func loadContents() throws(JournalError) -> JournalContents {
        let waiter = CompletionWaiter<JournalContents>()
        guard writer.enqueue(.load { waiter.complete($0) }) else { throw .closed }
        return try waiter.wait().get()
    }

    public func close() {
        writer.close()
    }

    /// The live connection's settings, read on the writer thread (`SQLiteJournalSettings`). Blocks.
    public func settings() throws(JournalError) -> SQLiteJournalSettings {
        let waiter = CompletionWaiter<SQLiteJournalSettings>()
        guard writer.enqueue(.settings { waiter.complete($0) }) else { throw .closed }
        return try waiter.wait().get()
    }
}
