import Foundation

extension SQLiteConnection {
    /// Creates the directory (0700) and the database file (0600) before SQLite opens it, since SQLite would create
    /// the file with 0644 (less the umask), and it creates the `-wal` and `-shm` files with the database file's
    /// mode: so every file of the database is private to the server's user. Both stores of the data directory (the
    /// game journal, the courts) call it: the files hold scorer-token hashes and what the venue's queue was told.
    static func createPrivateFiles(directory: String, path: String) throws(JournalError) {
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw .cannotCreate(path: directory, operation: "mkdir", errno: errno)
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotCreate(path: path, operation: "open", errno: errno) }
        Foundation.close(descriptor)
    }

    /// A side store's connection beside the journal (`<directory>/<fileName>`, private as above) in WAL mode with
    /// `synchronous`: the webhooks' and the venues' stores open theirs this one way.
    static func openPrivateSideFile(
        directory: String, fileName: String, synchronous: SideFileSynchronous
    ) throws(JournalError) -> SQLiteConnection {
        let path = (directory as NSString).appendingPathComponent(fileName)
        try createPrivateFiles(directory: directory, path: path)
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode=WAL")
        switch synchronous {
        case .normal: try connection.execute("PRAGMA synchronous=NORMAL")
        case .full: try connection.execute("PRAGMA synchronous=FULL")
        }
        return connection
    }
}

/// How a side store flushes (SQLite's `synchronous`): each case is one constant statement, never data.
enum SideFileSynchronous {
    /// Committed rows survive a killed process; a power cut may lose the last ones (a cursor moved back).
    case normal
    /// Every commit is on the disk before it returns.
    case full
}
