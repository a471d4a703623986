import CSQLite
import Foundation

/// A second, read-only connection to the game journal's SQLite file, for readers that follow the journal from
/// outside the game owners (webhook delivery): WAL mode lets it read committed events while the writer thread
/// appends, without taking the writer's connection or its queue. Every call takes a lock, so one reader may be
/// shared by several threads; none of them may be an event loop (a read may wait for the disk).
public final class SQLiteJournalReader: @unchecked Sendable {
    /// One stored event as the journal holds it: the sequence, when it happened and its JSON (`GameEvent`'s form).
    public struct Row: Sendable, Hashable {
        public let sequence: Int
        public let atMs: Int64
        public let json: String
    }

    /// A stored game: its id and when it was created (Unix milliseconds).
    public struct GameRow: Sendable, Hashable {
        public let id: String
        public let createdAtMs: Int64
    }

    private let lock = NSLock()
    // Guarded by `lock`: the confinement boundary that makes the reader Sendable.
    private let connection: SQLiteConnection
    private let selectGames: SQLiteStatement
    private let selectEvents: SQLiteStatement
    private let selectLast: SQLiteStatement

    /// Opens the journal database at `path` (`SQLiteJournal.path`: the file it writes, which must exist).
    public init(path: String) throws(JournalError) {
        connection = try SQLiteConnection(path: path)
        // A read waits out a checkpoint or a backup rather than failing at once.
        sqlite3_busy_timeout(connection.db, 5_000)
        try connection.execute("PRAGMA query_only = ON")
        selectGames = try connection.prepare("SELECT id, created_at_ms FROM games ORDER BY ordinal")
        selectEvents = try connection.prepare(
            "SELECT seq, at_ms, event_json FROM events WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?")
        selectLast = try connection.prepare("SELECT game_id, max(seq) FROM events GROUP BY game_id")
    }

    deinit {
        close()
    }

    /// Every game, in creation order.
    public func games() throws(JournalError) -> [GameRow] {
        lock.lock()
        defer { lock.unlock() }
        var rows: [GameRow] = []
        try selectGames.query { row in rows.append(GameRow(id: row.text(0), createdAtMs: row.int64(1))) }
        return rows
    }

    /// At most `limit` events of `game` after sequence `after`, in order.
    public func events(ofGame game: String, after: Int, limit: Int) throws(JournalError) -> [Row] {
        lock.lock()
        defer { lock.unlock() }
        var rows: [Row] = []
        try selectEvents.query([.text(game), .integer(Int64(after)), .integer(Int64(limit))]) { row in
            rows.append(Row(sequence: Int(row.int64(0)), atMs: row.int64(1), json: row.text(2)))
        }
        return rows
    }

    /// Each game's last event sequence (games without events are absent).
    public func lastSequences() throws(JournalError) -> [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        var last: [String: Int] = [:]
        try selectLast.query { row in last[row.text(0)] = Int(row.int64(1)) }
        return last
    }

    /// Releases the connection; later calls trap.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        selectGames.finalize()
        selectEvents.finalize()
        selectLast.finalize()
        connection.close()
    }
}
