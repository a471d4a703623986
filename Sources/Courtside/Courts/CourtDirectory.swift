import CourtsideModel
import Synchronization

/// The ids of the server's courts, Sendable: a route on any loop checks a court exists (404 before a WebSocket
/// upgrade, 400 for a game created on no such court) without a hop to the courts' loop. `CourtsOwner` adds each
/// court once it is stored; courts are never removed.
final class CourtDirectory: Sendable {
    private let ids = Mutex<Set<CourtID>>([])

    init() {}

    func contains(_ id: CourtID) -> Bool {
        ids.withLock { $0.contains(id) }
    }

    func insert(_ id: CourtID) {
        _ = ids.withLock { $0.insert(id) }
    }
}
