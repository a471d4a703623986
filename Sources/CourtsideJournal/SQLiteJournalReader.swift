import CSQLite
import Foundation

/// A second, read-only connection to the game journal's SQLite file, for readers that follow the journal from
/// outside the game owners (webhook delivery): WAL mode lets it read committed events while the writer thread
/// appends, without taking the writer's connection or its queue. Every call takes a lock, so one reader may be
/// shared by several threads; none of them may be an event loop (a read may wait for the disk).
public final class SQLiteJournalReader: JournalFollower, @unchecked Sendable {
    public typealias Row = FollowedEvent
    public typealias GameRow = FollowedGame

    private let lock = NSLock()
    /// Set by `close()`: later calls throw `.closed` instead of touching a closed connection (a delivery thread may
    /// still be finishing an attempt while the server shuts down).
    private var isClosed = false
    // Guarded by `lock`: the confinement boundary that makes the reader Sendable.
    private let connection: SQLiteConnection
    private let selectGames: SQLiteStatement
    private let selectEvents: SQLiteStatement
    private let selectLast: SQLiteStatement
    private let selectDataVersion: SQLiteStatement

    /// Opens the journal database at `path` (`SQLiteJournal.path`: the file it writes, which must exist).
    public init(path: String) throws(JournalError) {
        connection = try SQLiteConnection(path: path)
        // A read waits out a checkpoint or a backup rather than failing at once.
        sqlite3_busy_timeout(connection.db, 5_000)
        try connection.execute("PRAGMA query_only = ON")
        selectGames = try connection.prepare("SELECT id, created_at_ms FROM games ORDER BY ordinal")
        selectEvents = try connection.prepare(
            "SELECT seq, at_ms, event_json, presentation_seq FROM events WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?"
        )
        // One seek per game down the (game_id, seq) key, never a scan of every event.
        selectLast = try connection.prepare("SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?")
        selectDataVersion = try connection.prepare("PRAGMA data_version")
    }

    deinit {
        close()
    }

    /// Every game, in creation order, with its last event's sequence.
    public func games() throws(JournalError) -> [GameRow] {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .closed }
        var games: [(String, Int64)] = []
        try selectGames.query { row in games.append((row.text(0), row.int64(1))) }
        var rows: [GameRow] = []
        rows.reserveCapacity(games.count)
        for (id, createdAtMs) in games {
            var last = 0
            try selectLast.query([.text(id)]) { row in last = Int(row.int64(0)) }
            rows.append(GameRow(id: id, createdAtMs: createdAtMs, lastSequence: last))
        }
        return rows
    }

    public func changeMarker() throws(JournalError) -> String { String(try dataVersion()) }

    /// SQLite's `PRAGMA data_version`: it changes when another connection (the journal's writer) has committed since
    /// this connection last asked, so a follower re-reads only after a write.
    public func dataVersion() throws(JournalError) -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .closed }
        var version: Int64 = 0
        try selectDataVersion.query { row in version = row.int64(0) }
        return version
    }

    /// At most `limit` events of `game` after sequence `after`, in order.
    public func events(ofGame game: String, after: Int, limit: Int) throws(JournalError) -> [Row] {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .closed }
        var rows: [Row] = []
        try selectEvents.query([.text(game), .integer(Int64(after)), .integer(Int64(limit))]) { row in
            rows.append(
                Row(
                    sequence: Int(row.int64(0)), atMs: row.int64(1), json: row.text(2),
                    presentationSequence: Int(row.int64(3))))
        }
        return rows
    }

    /// Releases the connection; later calls trap.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        selectGames.finalize()
        selectEvents.finalize()
        selectLast.finalize()
        selectDataVersion.finalize()
        connection.close()
    }
}
