import CSQLite

/// A failed SQLite call, with what SQLite said about it.
public struct SQLiteFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_NOTADB`, …).
    public let code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_IOERR_FSYNC`, …).
    public let extendedCode: Int32
    /// `sqlite3_errmsg` at the time of the failure.
    public let message: String
    /// What was being done: the SQL of the statement, or an operation such as `open`.
    public let operation: String

    public init(code: Int32, extendedCode: Int32, message: String, operation: String) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.operation = operation
    }

    /// SQLite's English name for the extended code ("constraint failed", "disk I/O error", …).
    public var codeName: String {
        sqlite3_errstr(extendedCode).map { String(cString: $0) } ?? "unknown"
    }

    public var description: String {
        "SQLite error \(extendedCode) (\(codeName)): \(message) [in \(operation)]"
    }
}
