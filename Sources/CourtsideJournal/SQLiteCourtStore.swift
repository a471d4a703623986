import CourtsideModel
import Foundation

/// Courts in their own SQLite file of the data directory (`courts.sqlite3`), one row per court holding its JSON,
/// written with `synchronous=FULL` in WAL mode like the game journal: a save's completion means the court is on
/// disk. Writes are few (an administrator's or a queue's) and run on one serial queue, off the event loops.
public final class SQLiteCourtStore: CourtStore {
    public static let fileName = "courts.sqlite3"

    private let queue = DispatchQueue(label: "courtside.courts")
    private let confined: QueueConfined

    /// Opens (creating when missing, mode 0600 like its `-wal` and `-shm`) the store in `directory` (created with
    /// mode 0700 when missing).
    public init(directory: String) throws(CourtStoreError) {
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        do {
            try SQLiteConnection.createPrivateFiles(directory: directory, path: path)
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA journal_mode=WAL")
            try connection.execute("PRAGMA synchronous=FULL")
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS courts (id TEXT PRIMARY KEY, position INTEGER NOT NULL, record TEXT NOT NULL)"
            )
            confined = QueueConfined(
                connection: connection,
                upsert: try connection.prepare(
                    """
                    INSERT INTO courts (id, position, record) VALUES (?, (SELECT COUNT(*) FROM courts), ?)
                    ON CONFLICT(id) DO UPDATE SET record = excluded.record
                    """),
                select: try connection.prepare("SELECT id, record FROM courts ORDER BY position"))
        } catch {
            throw .storage(error)
        }
    }

    public func loadCourts() throws(CourtStoreError) -> [Court] {
        let result: Result<[Court], CourtStoreError> = queue.sync { [confined] in
            var courts: [Court] = []
            var failure: CourtStoreError?
            do throws(JournalError) {
                try confined.select.query { row in
                    do throws(CourtStoreError) {
                        courts.append(try CourtJSON.decode(Array(row.text(1).utf8), id: row.text(0)))
                    } catch {
                        failure = failure ?? error
                    }
                }
            } catch {
                return .failure(.storage(error))
            }
            return failure.map { .failure($0) } ?? .success(courts)
        }
        return try result.get()
    }

    public func save(_ court: Court, completion: @escaping @Sendable (Result<Void, CourtStoreError>) -> Void) {
        queue.async { [confined] in
            let data = CourtJSON.encode(court)
            do throws(JournalError) {
                try confined.upsert.run([.text(court.id.rawValue), .text(String(decoding: data, as: UTF8.self))])
                completion(.success(()))
            } catch {
                completion(.failure(.storage(error)))
            }
        }
    }

    public func close() {
        queue.sync { [confined] in
            confined.upsert.finalize()
            confined.select.finalize()
            confined.connection.close()
        }
    }

    /// The connection and its statements, used only on `queue`: the confinement boundary that makes the store
    /// Sendable (every use above is inside `queue.sync` or `queue.async`).
    private final class QueueConfined: @unchecked Sendable {
        let connection: SQLiteConnection
        let upsert: SQLiteStatement
        let select: SQLiteStatement

        init(connection: SQLiteConnection, upsert: SQLiteStatement, select: SQLiteStatement) {
            self.connection = connection
            self.upsert = upsert
            self.select = select
        }
    }
}
