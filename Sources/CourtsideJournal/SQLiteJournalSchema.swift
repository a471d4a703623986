import CSQLite

/// The journal's tables and how a database reaches the current version.
///
/// The schema version lives in SQLite's `PRAGMA user_version` (0 for a new file). Migration `i` takes version `i`
/// to `i + 1`, in one transaction with the version bump, so a crash mid-migration leaves the old version intact.
/// A database from a newer build is refused rather than written with an old idea of the schema.
enum SQLiteJournalSchema {
    static let migrations: [String] = [version1]

    static var currentVersion: Int { migrations.count }

    /// Version 1. STRICT tables (SQLite 3.37+) refuse values of the wrong type.
    /// - `games.ordinal` is the rowid: creation order, what `loadGames` follows.
    /// - `events` is keyed by (game_id, seq), so a game's events are stored together and read in order; the
    ///   trigger refuses any sequence but the game's last plus one, whoever writes (the Swift check in
    ///   `JournalRules` gives the typed error first; these are the last line).
    /// - The partial unique index on (game_id, command_id) keeps a command id to one event per game.
    static let version1 = """
        CREATE TABLE games (
            ordinal INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            setup_json TEXT NOT NULL,
            scorer_token_sha256 BLOB NOT NULL CHECK (length(scorer_token_sha256) = 32),
            created_at_ms INTEGER NOT NULL,
            metadata_json TEXT NOT NULL,
            archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
            archived_at_ms INTEGER,
            presentation_watermark INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        CREATE TABLE events (
            game_id TEXT NOT NULL REFERENCES games (id),
            seq INTEGER NOT NULL CHECK (seq >= 1),
            presentation_seq INTEGER NOT NULL CHECK (presentation_seq >= 0),
            command_id TEXT,
            at_ms INTEGER NOT NULL,
            event_json TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) STRICT, WITHOUT ROWID;
        CREATE UNIQUE INDEX events_by_command ON events (game_id, command_id) WHERE command_id IS NOT NULL;
        CREATE INDEX events_by_presentation ON events (game_id, presentation_seq);
        CREATE TRIGGER events_are_contiguous BEFORE INSERT ON events
        WHEN NEW.seq <> coalesce((SELECT max(seq) FROM events WHERE game_id = NEW.game_id), 0) + 1
        BEGIN
            SELECT RAISE(ABORT, 'event sequence is not the next one for its game');
        END;
        """

    /// Sets the connection up: WAL, `synchronous=FULL` (every commit fsyncs the WAL, so a completed write survives
    /// a crash or a power cut), foreign keys, the busy timeout. The first statement is also where SQLite first
    /// reads the file, so a non-SQLite file fails here, reported with its path.
    static func configure(
        _ connection: SQLiteConnection, busyTimeoutMs: Int32, autoCheckpointPages: Int?
    ) throws(JournalError) {
        sqlite3_busy_timeout(connection.db, busyTimeoutMs)
        do throws(JournalError) {
            let mode = try connection.prepare("PRAGMA journal_mode = WAL")
            defer { mode.finalize() }
            var journalMode = ""
            try mode.query { row in journalMode = row.text(0) }
            guard journalMode.lowercased() == "wal" else {
                throw .sqlite(
                    SQLiteFailure(
                        code: SQLITE_ERROR, extendedCode: SQLITE_ERROR,
                        message: "journal_mode is \(journalMode), not wal", operation: "PRAGMA journal_mode = WAL"))
            }
        } catch .sqlite(let failure) where [SQLITE_NOTADB, SQLITE_CORRUPT].contains(failure.code) {
            throw .notADatabase(path: connection.path, failure)
        }
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA foreign_keys = ON")
        if let autoCheckpointPages {
            // Only tests change this (0: never, so a copied file is a faithful crash image); `pages` is a code constant.
            try connection.execute(sql: "PRAGMA wal_autocheckpoint = \(autoCheckpointPages)")
        }
    }

    /// The most problems `PRAGMA quick_check` lists: enough to say what is wrong without reading a whole damaged
    /// file into a log line.
    static let quickCheckProblemLimit = 5

    /// `PRAGMA quick_check` (SQLite's O(N) structural check: every page, every b-tree, record formats; not index
    /// contents against their tables, which `integrity_check` adds at a far higher cost on a large journal): a
    /// damaged file is refused at start rather than found by the first write that touches the bad page.
    static func quickCheck(_ connection: SQLiteConnection) throws(JournalError) {
        let statement = try connection.prepare("PRAGMA quick_check(5)")
        defer { statement.finalize() }
        var problems: [String] = []
        do throws(JournalError) {
            try statement.query { row in problems.append(row.text(0)) }
        } catch .sqlite(let failure) where [SQLITE_NOTADB, SQLITE_CORRUPT].contains(failure.code) {
            throw .integrityCheckFailed(path: connection.path, problems: ["\(failure)"])
        }
        guard problems == ["ok"] else {
            throw .integrityCheckFailed(path: connection.path, problems: Array(problems.prefix(quickCheckProblemLimit)))
        }
    }

    /// What the connection runs with (`PRAGMA journal_mode`, `synchronous`, `foreign_keys`), read back.
    static func settings(_ connection: SQLiteConnection) throws(JournalError) -> SQLiteJournalSettings {
        func read(_ statement: SQLiteStatement) throws(JournalError) -> String {
            defer { statement.finalize() }
            var value = ""
            try statement.query { row in value = row.text(0) }
            return value
        }
        let journalMode = try read(try connection.prepare("PRAGMA journal_mode"))
        let synchronous = Int(try read(try connection.prepare("PRAGMA synchronous"))) ?? -1
        let foreignKeys = try read(try connection.prepare("PRAGMA foreign_keys")) == "1"
        return SQLiteJournalSettings(journalMode: journalMode, synchronous: synchronous, foreignKeys: foreignKeys)
    }

    /// Brings the database to `currentVersion`.
    static func migrate(_ connection: SQLiteConnection) throws(JournalError) {
        let found = try userVersion(connection)
        guard found <= currentVersion else {
            throw .schemaTooNew(path: connection.path, found: found, supported: currentVersion)
        }
        for version in found..<currentVersion {
            try connection.execute("BEGIN IMMEDIATE")
            do throws(JournalError) {
                try connection.execute(sql: migrations[version])
                try connection.execute(sql: "PRAGMA user_version = \(version + 1)")
                try connection.execute("COMMIT")
            } catch {
                if connection.isInTransaction { try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    static func userVersion(_ connection: SQLiteConnection) throws(JournalError) -> Int {
        let statement = try connection.prepare("PRAGMA user_version")
        defer { statement.finalize() }
        var version = 0
        try statement.query { row in version = Int(row.int64(0)) }
        return version
    }
}
