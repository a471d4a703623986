import CourtsideModel
import Foundation

/// The venues a public node relays (docs/relay.md), in their own SQLite file beside the journal
/// (`venues.sqlite3`, mode 0600: it holds the tokens' hashes). One row per venue; the token is never stored, only
/// its SHA-256.
///
/// Every call takes a lock and may wait for the disk: call it from a queue or at start-up, never a loop.
public final class SQLiteVenueStore: VenueStore, @unchecked Sendable {
    public static let fileName = "venues.sqlite3"

    private let lock = NSLock()
    private var isClosed = false
    // Guarded by `lock`: the confinement boundary that makes the store Sendable.
    private let connection: SQLiteConnection
    private let insert: SQLiteStatement
    private let selectAll: SQLiteStatement

    /// Opens (creating when missing) the store in `directory` (created with mode 0700 when missing).
    public init(directory: String) throws(JournalError) {
        // A venue is created by hand and rarely: every insert is durable before its token is shown.
        connection = try SQLiteConnection.openPrivateSideFile(
            directory: directory, fileName: Self.fileName, synchronous: .full)
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS venues (
                id TEXT PRIMARY KEY, name TEXT NOT NULL,
                token_sha256 BLOB NOT NULL CHECK (length(token_sha256) = 32), created_at_ms INTEGER NOT NULL
            ) STRICT;
            """)
        insert = try connection.prepare(
            "INSERT INTO venues (id, name, token_sha256, created_at_ms) VALUES (?, ?, ?, ?)")
        selectAll = try connection.prepare(
            "SELECT id, name, token_sha256, created_at_ms FROM venues ORDER BY rowid")
    }

    deinit {
        close()
    }

    /// Every stored venue, in creation order.
    public func loadAll() throws(JournalError) -> [RelayVenue] {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .closed }
        var venues: [RelayVenue] = []
        try selectAll.query { row in
            venues.append(
                RelayVenue(
                    id: row.text(0), name: row.text(1), tokenSHA256: row.blob(2),
                    createdAt: Timestamp(milliseconds: row.int64(3))))
        }
        return venues
    }

    /// Stores a new venue; refused by the primary key when its id is taken.
    public func save(_ venue: RelayVenue) throws(JournalError) {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .closed }
        try insert.run([
            .text(venue.id), .text(venue.name), .blob(venue.tokenSHA256), .integer(venue.createdAt.milliseconds),
        ])
    }

    /// One node's file: nobody else writes it.
    public var isShared: Bool { false }

    /// Releases the connection.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        insert.finalize()
        selectAll.finalize()
        connection.close()
    }
}
