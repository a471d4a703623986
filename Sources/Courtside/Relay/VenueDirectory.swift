import CourtsideJournal
import CourtsideModel
import Foundation
import Synchronization

/// The venues this public node relays (docs/relay.md, "Ids"): created by the admin with `POST /api/venues`, each
/// with a token shown once and stored as its SHA-256 (`SQLiteVenueStore` beside the journal, or `RedisVenueStore`
/// shared by every node of a cluster). Creation writes the store, so the routes run it on `queue`; the lookups read
/// memory and run anywhere. With a shared store another node may have created a venue since this one read it: a
/// token not in memory reads the store again (`authenticate(token:completion:)`, at most once a second).
final class VenueDirectory: Sendable {
    /// The most venues kept: each may hold a relay connection open, so their number bounds those connections.
    static let maxVenues = 256

    let queue = DispatchQueue(label: "courtside.venues")
    /// The least time between two reads of a shared store for tokens not in memory, so wrong tokens cannot make
    /// a node read Redis at their own pace.
    static let refreshInterval: Int64 = 1_000

    private let store: any VenueStore
    private let clock: @Sendable () -> Timestamp
    /// Creation order; replaced or appended only on `queue`, after the store was read or wrote the venue.
    private let venues: Mutex<[RelayVenue]>
    /// When the store was last read (on `queue`).
    private let lastRefresh = Mutex<Timestamp?>(nil)

    convenience init(directory: String, clock: @escaping @Sendable () -> Timestamp) throws(JournalError) {
        try self.init(store: SQLiteVenueStore(directory: directory), clock: clock)
    }

    /// Reads `store` now; a shared store that does not answer at start is read again at the first unknown token.
    init(store: any VenueStore, clock: @escaping @Sendable () -> Timestamp) throws(JournalError) {
        self.store = store
        self.clock = clock
        do throws(JournalError) {
            venues = Mutex(try store.loadAll())
        } catch .unavailable where store.isShared {
            venues = Mutex([])
        }
    }

    /// Whether other nodes create venues in the same store.
    var isShared: Bool { store.isShared }

    /// `completion` gets the venue whose token is `token`, reading a shared store again when it is not in memory
    /// (created on another node since); on `queue`, or at once when memory answers.
    func authenticate(token: String, completion: @escaping @Sendable (RelayVenue?) -> Void) {
        if let venue = authenticate(token: token) { return completion(venue) }
        guard store.isShared, RelayVenue.id(fromToken: token) != nil else { return completion(nil) }
        queue.async { [self] in
            refresh()
            completion(authenticate(token: token))
        }
    }

    /// Reads a shared store again (call on `queue`), unless it was read less than `refreshInterval` ago.
    func refresh() {
        guard store.isShared else { return }
        let now = clock()
        if let last = lastRefresh.withLock({ $0 }), now.milliseconds(since: last) < Self.refreshInterval,
            now.milliseconds(since: last) >= 0
        {
            return
        }
        lastRefresh.withLock { $0 = now }
        guard let all = try? store.loadAll() else { return }
        venues.withLock { $0 = all }
    }

    /// Every venue, in creation order.
    var all: [RelayVenue] { venues.withLock { $0 } }

    /// The venue `id`, if it exists.
    func venue(_ id: String) -> RelayVenue? {
        venues.withLock { list in list.first { $0.id == id } }
    }

    /// The venue whose token is `token` (`<venue id>.<secret>`); nil when it is not one (the comparison is in
    /// constant time, as for every token).
    func authenticate(token: String) -> RelayVenue? {
        guard let id = RelayVenue.id(fromToken: token), let venue = venue(id),
            SecretToken.matches(token, digest: venue.tokenSHA256)
        else { return nil }
        return venue
    }

    /// The venue that relays `game` (its id's part before the first dot), if it is one of these venues. With a
    /// shared store, a venue id not in memory (created on another node since) has the store read again in the
    /// background, so the next lookup finds it.
    func relaying(_ game: GameID) -> RelayVenue? {
        guard let dot = game.rawValue.firstIndex(of: ".") else { return nil }
        let prefix = String(game.rawValue[..<dot])
        guard RelayVenue.isValidID(prefix) else { return nil }
        if let known = venue(prefix) { return known }
        if store.isShared { queue.async { [self] in refresh() } }
        return nil
    }

    /// Creates a venue named `name` (call on `queue`): its record and its token, which is never shown again.
    func create(name raw: String) throws(VenueRequestError) -> (venue: RelayVenue, token: String) {
        let name: String
        do {
            name = try DisplayName.validated(raw)
        } catch {
            throw .badName("\(error)")
        }
        guard venues.withLock({ $0.count }) < Self.maxVenues else { throw .tooMany(limit: Self.maxVenues) }
        var id = Self.newID()
        while venue(id) != nil { id = Self.newID() }
        // The id leads the token, so a venue node started with the token alone knows which venue it is.
        let token = id + "." + SecretToken.generate()
        let venue = RelayVenue(id: id, name: name, tokenSHA256: SecretToken.sha256(token), createdAt: clock())
        do {
            try store.save(venue)
        } catch {
            throw .storage("\(error)")
        }
        venues.withLock { $0.append(venue) }
        return (venue, token)
    }

    func close() {
        store.close()
    }

    /// `v` and 8 lowercase letters or digits from the system's CSPRNG: ids are not secrets, but a random one
    /// cannot collide with another public node's venue when a venue moves between them.
    static func newID() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        let tail = (0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return "v" + String(decoding: tail, as: UTF8.self)
    }
}

/// Why `POST /api/venues` was refused.
enum VenueRequestError: Error, Equatable {
    /// The body is not a JSON object with a string `name`, or has another field.
    case badBody(String)
    /// The name breaks the display-name rule (docs/protocol.md, "Names").
    case badName(String)
    /// `maxVenues` venues exist already.
    case tooMany(limit: Int)
    /// The venue store could not write.
    case storage(String)
}
