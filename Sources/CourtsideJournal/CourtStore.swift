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
    /// Every stored court with its version, in creation order.
    func loadStoredCourts() throws(CourtStoreError) -> [StoredCourt]
    /// Stores `court` only if its stored version is still `version` (0: no such court yet), so two nodes sharing a
    /// store never overwrite each other's change: `completion` gets the new version, or `.conflict` with the stored
    /// court to start again from, or `.full` when a new court would pass `limit` courts. A store that only one
    /// server writes (SQLite, memory) has no other writer: it stores and counts on its own (the default).
    func save(
        _ court: Court, over version: Int, limit: Int,
        completion: @escaping @Sendable (Result<Int, CourtStoreError>) -> Void)
    /// Whether courts relayed from a venue are stored here for every node sharing the store (`saveRelayed`); false:
    /// the server alone shows them, from memory (the default), and the venue sends them again after a restart.
    var sharesRelayedCourts: Bool { get }
    /// Stores `courts`, relayed whole from the venue named `venue`, for every node sharing the store (docs/relay.md,
    /// "Courts"): each is stored with a version one past the stored one when it differs from what is stored, and
    /// `completion` gets each court as stored, in order, or nil for a new court past `limit` relayed courts.
    func saveRelayed(
        _ courts: [Court], venue: String, limit: Int,
        completion: @escaping @Sendable (Result<[StoredCourt?], CourtStoreError>) -> Void)
    /// Every relayed court stored for the nodes sharing the store (none when `sharesRelayedCourts` is false), and
    /// why each court stored in a form that cannot be shown was left out (`.corruptCourt`).
    func loadRelayedCourts() throws(CourtStoreError) -> (courts: [StoredCourt], refused: [CourtStoreError])
    func close()
}

/// A court as stored, with the number of changes stored for it (its first version is 1).
public struct StoredCourt: Sendable, Hashable {
    public let court: Court
    public let version: Int
    /// The name of the venue the court is relayed from (shown read-only, docs/relay.md), or nil for a court of the
    /// server's own.
    public let relayedFrom: String?

    public init(court: Court, version: Int, relayedFrom: String? = nil) {
        self.court = court
        self.version = version
        self.relayedFrom = relayedFrom
    }
}

extension CourtStore {
    /// One writer: the loaded courts are current, each at version 0 (nothing to compare with).
    public func loadStoredCourts() throws(CourtStoreError) -> [StoredCourt] {
        try loadCourts().map { StoredCourt(court: $0, version: 0) }
    }

    /// One writer: nothing can have changed the court meanwhile, and the server counts its courts itself.
    public func save(
        _ court: Court, over version: Int, limit: Int,
        completion: @escaping @Sendable (Result<Int, CourtStoreError>) -> Void
    ) {
        save(court) { result in completion(result.map { version + 1 }) }
    }

    /// One server: relayed courts are shown from memory only.
    public var sharesRelayedCourts: Bool { false }

    public func saveRelayed(
        _ courts: [Court], venue: String, limit: Int,
        completion: @escaping @Sendable (Result<[StoredCourt?], CourtStoreError>) -> Void
    ) {
        completion(.failure(.storage(.storageFailure(reason: "this court store keeps no relayed courts"))))
    }

    public func loadRelayedCourts() throws(CourtStoreError) -> (courts: [StoredCourt], refused: [CourtStoreError]) {
        ([], [])
    }
}

/// Why the court store failed.
public enum CourtStoreError: Error, Sendable, Hashable {
    /// SQLite refused (opening, the schema, a write).
    case storage(JournalError)
    /// A stored court could not be read back.
    case corruptCourt(id: String, reason: String)
    /// Another server changed the court since the version the save started from: `current` is what is stored.
    case conflict(current: StoredCourt)
    /// A new court was refused: the store already holds `limit` courts.
    case full(limit: Int)
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
