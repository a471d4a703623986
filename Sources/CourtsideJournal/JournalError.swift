import CourtsideModel
import Foundation

/// Why a journal operation failed. A failed write stored nothing.
public enum JournalError: Error, Sendable, Hashable {
    /// A game with this id already exists.
    case duplicateGame(GameID)
    /// No game has this id.
    case unknownGame(GameID)
    /// The game is archived and takes no more events.
    case gameArchived(GameID)
    /// An event's sequence is not the game's next one (a gap or a duplicate): `expected` is the last plus one.
    case unexpectedSequence(GameID, expected: Int, got: Int)
    /// An event's presentation sequence is lower than the previous event's, or negative.
    case presentationSequenceWentBack(GameID, sequence: Int, previous: Int, got: Int)
    /// A command id is already recorded for this game (or twice in one batch).
    case duplicateCommandID(GameID, CommandID)
    /// The scorer-token hash is not a SHA-256 digest.
    case invalidScorerTokenHash(GameID, byteCount: Int)
    /// A value could not be encoded for storage.
    case encodingFailed(GameID, reason: String)
    /// A stored record could not be read back (edited or corrupted database): `sequence` is nil for the game row.
    case corruptRecord(GameID, sequence: Int?, reason: String)
    /// The data directory or the database file could not be created or opened (`errno` from the system call).
    case cannotCreate(path: String, operation: String, errno: Int32)
    /// SQLite could not open or set up the database file (permissions, a read-only directory for the WAL, …).
    case cannotOpen(path: String, SQLiteFailure)
    /// The file exists but is not a usable SQLite database (SQLITE_NOTADB, SQLITE_CORRUPT, …).
    case notADatabase(path: String, SQLiteFailure)
    /// The database was written by a newer Courtside: its schema version is beyond what this build knows.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// `PRAGMA quick_check` found damage at open (a torn page, a broken index): the first `problems` it reported.
    /// The server refuses to run on it; restore a backup or salvage it with `sqlite3 FILE .recover`.
    case integrityCheckFailed(path: String, problems: [String])
    /// Any other SQLite failure.
    case sqlite(SQLiteFailure)
    /// The journal was closed before the operation ran.
    case closed
}

extension JournalError: CustomStringConvertible {
    /// One line for a log or a start-up failure, naming the game or the file at fault.
    public var description: String {
        switch self {
        case .duplicateGame(let id): return "game \(id) already exists"
        case .unknownGame(let id): return "no game \(id)"
        case .gameArchived(let id): return "game \(id) is archived"
        case .unexpectedSequence(let id, let expected, let got):
            return "game \(id): event \(got) is not the next one (expected \(expected))"
        case .presentationSequenceWentBack(let id, let sequence, let previous, let got):
            return "game \(id): event \(sequence) has presentation sequence \(got), below \(previous)"
        case .duplicateCommandID(let id, let command): return "game \(id): command \(command) is already recorded"
        case .invalidScorerTokenHash(let id, let count):
            return "game \(id): scorer token hash has \(count) bytes, not a SHA-256 digest"
        case .encodingFailed(let id, let reason): return "game \(id): cannot encode: \(reason)"
        case .corruptRecord(let id, let sequence, let reason):
            return "game \(id)\(sequence.map { ", event \($0)" } ?? ""): unreadable record: \(reason)"
        case .cannotCreate(let path, let operation, let code):
            return "\(path): \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .cannotOpen(let path, let failure): return "\(path) cannot be opened: \(failure)"
        case .notADatabase(let path, let failure): return "\(path) is not a usable SQLite database: \(failure)"
        case .schemaTooNew(let path, let found, let supported):
            return "\(path) has schema version \(found); this build knows up to \(supported)"
        case .integrityCheckFailed(let path, let problems):
            return
                "\(path) failed PRAGMA quick_check (\(problems.joined(separator: "; "))): restore a backup, or salvage"
                + " it with sqlite3 \(path) .recover"
        case .sqlite(let failure): return "\(failure)"
        case .closed: return "the journal is closed"
        }
    }
}
