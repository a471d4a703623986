import Foundation

/// Webhook subscriptions and their delivery cursors, in their own SQLite file beside the journal
/// (`webhooks.sqlite3`, mode 0600: it holds the signing secrets). A subscription is one row holding its JSON (the
/// server's `Webhook` form); a cursor is the last event sequence delivered per webhook and game. A cursor moves
/// only after the receiver acknowledged the event, and it is stored with `synchronous=NORMAL` in WAL mode: a
/// process killed at any point keeps every committed cursor, and a power cut may at worst move one back, which
/// redelivers an event with the same `webhook-id` (receivers dedupe), never loses one.
///
/// Every call takes a lock and may wait for the disk: call it from delivery threads or a queue, never a loop.
public final class SQLiteWebhookStore: WebhookStore, @unchecked Sendable {
    public static let fileName = "webhooks.sqlite3"

    private let lock = NSLock()
    /// Set by `close()`: later calls throw `.closed` instead of touching a closed connection (a delivery thread may
    /// still be finishing an attempt while the server shuts down).
    private var isClosed = false
    // Guarded by `lock`: the confinement boundary that makes the store Sendable.
    private let connection: SQLiteConnection
    private let upsert: SQLiteStatement
    private let remove: SQLiteStatement
    private let removeCursors: SQLiteStatement
    private let selectAll: SQLiteStatement
    private let selectCursors: SQLiteStatement
    private let upsertCursor: SQLiteStatement

    /// Opens (creating when missing) the store in `directory` (created with mode 0700 when missing).
    public init(directory: String) throws(JournalError) {
        connection = try SQLiteConnection.openPrivateSideFile(
            directory: directory, fileName: Self.fileName, synchronous: .normal)
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS webhooks (id TEXT PRIMARY KEY, record TEXT NOT NULL) STRICT;
            CREATE TABLE IF NOT EXISTS webhook_cursors (
                webhook_id TEXT NOT NULL, game_id TEXT NOT NULL, seq INTEGER NOT NULL CHECK (seq >= 0),
                PRIMARY KEY (webhook_id, game_id)
            ) STRICT, WITHOUT ROWID;
            """)
        upsert = try connection.prepare(
            "INSERT INTO webhooks (id, record) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET record = excluded.record")
        remove = try connection.prepare("DELETE FROM webhooks WHERE id = ?")
        removeCursors = try connection.prepare("DELETE FROM webhook_cursors WHERE webhook_id = ?")
        selectAll = try connection.prepare("SELECT id, record FROM webhooks ORDER BY rowid")
        selectCursors = try connection.prepare("SELECT game_id, seq FROM webhook_cursors WHERE webhook_id = ?")
        upsertCursor = try connection.prepare(
            """
            INSERT INTO webhook_cursors (webhook_id, game_id, seq) VALUES (?, ?, ?)
            ON CONFLICT(webhook_id, game_id) DO UPDATE SET seq = excluded.seq
            """)
    }

    deinit {
        close()
    }

    /// Every stored webhook as (id, record JSON), in creation order.
    public func loadAll() throws(JournalError) -> [(id: String, record: String)] {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .closed }
        var rows: [(id: String, record: String)] = []
        try selectAll.query { row in rows.append((row.text(0), row.text(1))) }
        return rows
    }

    /// One node: the record is replaced whether or not it is new (a delete and the save of a failing state happen in
    /// this one process, and the service stops a worker before it deletes its webhook).
    public var isShared: Bool { false }

    /// Stores (or replaces) a webhook's record; with `cursors`, sets those cursors in the same transaction (a new
    /// webhook starts after every event already stored).
    public func save(id: String, record: String, creating: Bool = false, cursors: [String: Int] = [:])
        throws(JournalError)
    {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .closed }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(JournalError) {
            try upsert.run([.text(id), .text(record)])
            for (game, seq) in cursors.sorted(by: { $0.key < $1.key }) {
                try upsertCursor.run([.text(id), .text(game), .integer(Int64(seq))])
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Removes a webhook and its cursors.
    public func delete(id: String) throws(JournalError) {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .closed }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(JournalError) {
            try remove.run([.text(id)])
            try removeCursors.run([.text(id)])
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// A webhook's cursors: the last sequence delivered per game (a game without one starts at its beginning).
    public func cursors(ofWebhook id: String) throws(JournalError) -> [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .closed }
        var cursors: [String: Int] = [:]
        try selectCursors.query([.text(id)]) { row in cursors[row.text(0)] = Int(row.int64(1)) }
        return cursors
    }

    /// Records that every event of `game` up to `seq` was delivered to webhook `id` (or, for a replay, moves the
    /// cursor back).
    public func setCursor(webhook id: String, game: String, seq: Int) throws(JournalError) {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .closed }
        try upsertCursor.run([.text(id), .text(game), .integer(Int64(seq))])
    }

    /// One node delivers everything: the cursor moves.
    public func advanceCursor(webhook id: String, game: String, from expected: Int?, to next: Int, token: String)
        throws(JournalError) -> WebhookCursorAdvance
    {
        try setCursor(webhook: id, game: game, seq: next)
        return .advanced
    }

    /// One node: it always holds every lease.
    public func lease(webhook id: String, token: String, durationMs: Int) throws(JournalError) -> Bool { true }

    public func release(webhook id: String, token: String) throws(JournalError) {}

    /// Attempts stay in the worker's memory (a restart empties the list, not the cursors).
    public func recordAttempt(webhook id: String, json: String, keep: Int) throws(JournalError) {}

    public func attempts(ofWebhook id: String) throws(JournalError) -> [String]? { nil }

    /// Only this process changes the webhooks, and it knows when it does.
    public func changeMarker() throws(JournalError) -> String { "" }

    /// Releases the connection.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        for statement in [upsert, remove, removeCursors, selectAll, selectCursors, upsertCursor] {
            statement.finalize()
        }
        connection.close()
    }
}
