import CourtsideModel
import Synchronization

/// The ids of the server's courts and their documents as encoded JSON, Sendable: a route on any loop checks a court
/// exists (404 before a WebSocket upgrade, 400 for a game created on no such court) and answers `GET /api/courts`
/// and `GET /api/courts/{id}` without a hop to the courts' loop (the lobby's), which the anonymous reads could
/// otherwise keep busy. `CourtsOwner` adds each court once it is stored and replaces its bytes on each published
/// change: each version of a court is encoded once, however many read it. Courts are never removed.
final class CourtDirectory: Sendable {
    private struct Contents {
        var ids: Set<CourtID> = []
        var order: [CourtID] = []
        /// Each court's value as published: what a venue node relays (docs/relay.md).
        var values: [CourtID: Court] = [:]
        /// COURT, per court.
        var documents: [CourtID: [UInt8]] = [:]
        /// COURT with `links`, per court: an element of the list.
        var listed: [CourtID: [UInt8]] = [:]
        /// `{"courts":[…]}`, rebuilt from `listed` on each change.
        var list: [UInt8] = Array(#"{"courts":[]}"#.utf8)
    }

    private let contents = Mutex(Contents())
    private let waiting: Mutex<Bool>
    /// Told after each publish (a venue node's uplink, which relays the courts whole).
    private let observer = Mutex<(@Sendable () -> Void)?>(nil)

    /// `waiting`: the courts are in a Redis partition that did not answer at start; court requests answer
    /// `unavailable` until `loaded()`.
    init(waiting: Bool = false) {
        self.waiting = Mutex(waiting)
    }

    var isWaiting: Bool { waiting.withLock { $0 } }

    /// The stored courts are shown (after a start while their partition was down).
    func loaded() {
        waiting.withLock { $0 = false }
    }

    func contains(_ id: CourtID) -> Bool {
        contents.withLock { $0.ids.contains(id) }
    }

    /// Every court as last published, in creation order.
    var courts: [Court] {
        contents.withLock { contents in contents.order.compactMap { contents.values[$0] } }
    }

    /// Calls `changed` after each later publish, on the publishing thread.
    func observe(_ changed: @escaping @Sendable () -> Void) {
        observer.withLock { $0 = changed }
    }

    /// The body of `GET /api/courts`.
    var listBytes: [UInt8] { contents.withLock { $0.list } }

    /// The body of `GET /api/courts/{id}`, or nil for an unknown court.
    func documentBytes(_ id: CourtID) -> [UInt8]? {
        contents.withLock { $0.documents[id] }
    }

    /// Adds the court or replaces its value and bytes: `document` is COURT, `listed` COURT with its links.
    func publish(_ court: Court, document: [UInt8], listed: [UInt8]) {
        let id = court.id
        contents.withLock { contents in
            if contents.ids.insert(id).inserted { contents.order.append(id) }
            contents.values[id] = court
            contents.documents[id] = document
            contents.listed[id] = listed
            var list = Array(#"{"courts":["#.utf8)
            for (index, court) in contents.order.enumerated() {
                if index > 0 { list.append(UInt8(ascii: ",")) }
                list += contents.listed[court] ?? []
            }
            list += Array("]}".utf8)
            contents.list = list
        }
        observer.withLock { $0 }?()
    }
}
