import CourtsideModel
import Foundation
import Synchronization

/// Where a server keeps its courts (docs/protocol.md): each court stored whole after every change, so a restart shows
/// the same court pages, games and queues. Kept apart from `GameJournal` (games are event logs; a court is a small
/// value that is replaced), in the same data directory.
public protocol CourtStore: Sendable {
    /// Every stored court, in creation order.
    func loadCourts() throws(CourtStoreError) -> [Court]
    /// Stores `court` (replacing the stored value of its id); `completion` runs once it is durable, on any thread.
    func save(_ court: Court, completion: @escaping @Sendable (Result<Void, CourtStoreError>) -> Void)
    func close()
}

/// Why the court store failed.
public enum CourtStoreError: Error, Sendable, Hashable {
    /// SQLite refused (opening, the schema, a write).
    case storage(JournalError)
    /// A stored court could not be read back.
    case corruptCourt(id: String, reason: String)
}

/// Courts in memory: for tests and for servers whose games are in memory too.
public final class InMemoryCourtStore: CourtStore {
    private let courts = Mutex<[Court]>([])

    public init(restoring courts: [Court] = []) {
        self.courts.withLock { $0 = courts }
    }

    public func loadCourts() throws(CourtStoreError) -> [Court] {
        courts.withLock { $0 }
    }

    public func save(_ court: Court, completion: @escaping @Sendable (Result<Void, CourtStoreError>) -> Void) {
        courts.withLock { courts in
            if let index = courts.firstIndex(where: { $0.id == court.id }) {
                courts[index] = court
            } else {
                courts.append(court)
            }
        }
        completion(.success(()))
    }

    public func close() {}
}
