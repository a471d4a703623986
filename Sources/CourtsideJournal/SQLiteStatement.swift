import CSQLite

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null
}

/// A prepared statement, prepared once and reused for every call (`sqlite3_reset` between runs). Every value goes
/// through a bound parameter; no SQL is ever built from data.
final class SQLiteStatement {
    let sql: String
    private let connection: SQLiteConnection
    private var handle: OpaquePointer?

    init(connection: SQLiteConnection, sql: String) throws(JournalError) {
        self.connection = connection
        self.sql = sql
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(
            connection.db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw .sqlite(connection.failure(code, operation: sql))
        }
        self.handle = statement
    }

    deinit {
        finalize()
    }

    private var statement: OpaquePointer {
        guard let handle else { preconditionFailure("Invalid state: statement used after finalize: \(sql)") }
        return handle
    }

    /// Runs the statement to completion with `values` bound (for INSERT, UPDATE and transaction control).
    func run(_ values: [SQLiteValue] = []) throws(JournalError) {
        try bind(values)
        defer { sqlite3_reset(statement) }
        while try step() {}
    }

    /// Runs a query with `values` bound, calling `row` for each result row (read it with the column accessors).
    func query(_ values: [SQLiteValue] = [], row: (SQLiteStatement) throws(JournalError) -> Void) throws(JournalError) {
        try bind(values)
        defer { sqlite3_reset(statement) }
        while try step() {
            try row(self)
        }
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    func text(_ column: Int32) -> String {
        // `sqlite3_column_text` before `sqlite3_column_bytes`, as SQLite documents, so the length is the UTF-8 one.
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(statement, column) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    func finalize() {
        guard let handle else { return }
        sqlite3_finalize(handle)
        self.handle = nil
    }

    private func bind(_ values: [SQLiteValue]) throws(JournalError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number):
                code = sqlite3_bind_int64(statement, index, number)
            case .text(let string):
                // SQLITE_TRANSIENT: SQLite copies the bytes, since Swift's buffer lives only for this call.
                code = sqlite3_bind_text(statement, index, string, -1, csqlite_transient())
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(buffer.count), csqlite_transient())
                }
            case .null:
                code = sqlite3_bind_null(statement, index)
            }
            guard code == SQLITE_OK else { throw .sqlite(connection.failure(code, operation: sql)) }
        }
    }

    /// One step: true for a row, false when done.
    private func step() throws(JournalError) -> Bool {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw .sqlite(connection.failure(code, operation: sql))
        }
    }
}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}
