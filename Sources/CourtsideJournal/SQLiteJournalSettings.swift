/// A live SQLite journal connection's durability settings, as SQLite reports them (`SQLiteJournal.settings()`): a
/// test can check what the connection really runs with, not what the code meant to set.
public struct SQLiteJournalSettings: Sendable, Hashable {
    /// `PRAGMA journal_mode`: `wal`.
    public var journalMode: String
    /// `PRAGMA synchronous`: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. The journal needs FULL: every commit fsyncs the WAL,
    /// so an acked command survives a power cut (NORMAL may lose the last commits).
    public var synchronous: Int
    /// `PRAGMA foreign_keys`.
    public var foreignKeys: Bool

    /// `PRAGMA synchronous = FULL`.
    public static let synchronousFull = 2
}
