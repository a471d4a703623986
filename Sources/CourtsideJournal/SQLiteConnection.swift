import CSQLite

/// One SQLite connection (`sqlite3*`), opened without SQLite's own mutex: it is confined to one thread at a time
/// (the journal's writer thread, after `SQLiteJournal.init` hands it over).
final class SQLiteConnection {
    let path: String
    private var handle: OpaquePointer?

    /// Opens (creating when missing) the database at `path`. SQLite opens lazily, so a file that is not a database
    /// is only detected by the first statement: see `SQLiteJournalSchema.configure`.
    init(path: String) throws(JournalError) {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw .cannotOpen(
                path: path,
                SQLiteFailure(code: code & 0xFF, extendedCode: code, message: message, operation: "open"))
        }
        self.handle = db
    }

    deinit {
        close()
    }

    var db: OpaquePointer {
        guard let handle else { preconditionFailure("Invalid state: connection to \(path) used after close") }
        return handle
    }

    /// Whether a transaction is open. SQLite rolls a transaction back by itself after some errors (SQLITE_FULL,
    /// SQLITE_IOERR, …): the writer checks this to know whether earlier writes of a group were lost.
    var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int {
        Int(sqlite3_changes64(db))
    }

    /// Runs constant SQL (schema, pragmas) that carries no data: data always goes through bound parameters.
    func execute(_ sql: StaticString) throws(JournalError) {
        try execute(sql: "\(sql)")
    }

    /// Runs constant SQL built from code constants only (a migration script, `PRAGMA user_version = N`).
    func execute(sql: String) throws(JournalError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(db, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            throw .sqlite(
                SQLiteFailure(
                    code: code & 0xFF, extendedCode: sqlite3_extended_errcode(db), message: message, operation: sql))
        }
    }

    func prepare(_ sql: StaticString) throws(JournalError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: "\(sql)")
    }

    /// The failure SQLite reports for `code`, returned by a call made for `operation`.
    func failure(_ code: Int32, operation: String) -> SQLiteFailure {
        SQLiteFailure(
            code: code & 0xFF, extendedCode: sqlite3_extended_errcode(db),
            message: String(cString: sqlite3_errmsg(db)), operation: operation)
    }

    /// Closes the connection. Statements must be finalized first; `sqlite3_close_v2` would otherwise defer the
    /// close until they are (a "zombie" connection), which is safe but keeps the file open.
    func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }
}

@available(*, unavailable)
extension SQLiteConnection: Sendable {}
