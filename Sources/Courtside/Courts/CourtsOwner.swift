import CourtsideBytes
import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// Every court of the server, owned by one loop like the lobby (docs/protocol.md, "Courts"): a court's document
/// (`WS /ws/courts/{id}`) and its feed, and the changes to it.
///
/// A change is stored before it is shown: the new court value goes to the store, and only once it is durable does
/// the presenter publish it and the request get its answer. Changes to one court made while an earlier one is
/// being stored start from the value being stored (`pending`), and the store keeps their order (one queue), so no
/// change is lost. Loop-confined.
///
/// Under `--redis` every node shares the courts (`RedisCourtStore`): a change is stored over the version it started
/// from, and when another node stored one meanwhile (`.conflict`) the stored court is shown and the change is made
/// again from it (at most `maxAttempts` times), so a change is never made from a stale court nor lost. Other nodes'
/// changes arrive from the shared feed (`apply`) and are shown only when newer than what is shown (`versions`), so a
/// change read from the feed before this node's own reply is never replaced by an older one. With one server
/// (SQLite, memory) there is no other writer: versions only count, and nothing conflicts.
///
/// Reads do not come here: each published version of a court is encoded once into the `CourtDirectory`, which any
/// loop answers from. A court weighs at most `Court.maxDocumentBytes` and there are at most `maxCourts`, so what the
/// courts hold in memory and send is bounded.
final class CourtsOwner {
    /// Courts a server keeps: more than a venue has, few enough that the list stays small (2 MiB at most).
    static let maxCourts = 64
    /// Tries of one change against other nodes' changes to the same court: people change a court, so two at once
    /// is rare and eight in a row means the store misbehaves.
    static let maxAttempts = 8
    /// Courts relayed from venue nodes shown at once (docs/relay.md): a few venues' worth, so hostile or many
    /// venues cannot make the courts grow without bound (each venue relays at most
    /// `RelayedVenueStateMachine.maxCourts`).
    static let maxRelayedCourts = 256
    let context: LoopContext
    /// What this node's court ids start with: a venue node's venue id and a dot, so they never collide upstream.
    private let idPrefix: String
    private let store: any CourtStore
    private let group: EventLoopGroup
    private let metrics: ServerMetrics
    private let clock: @Sendable () -> Timestamp
    private var courts: [CourtID: CourtEntry] = [:]
    private var order: [CourtID] = []
    private var pending: [CourtID: Court] = [:]
    /// The stored version of each court as shown, and of the value being stored (`pending`).
    private var versions: [CourtID: Int] = [:]
    private var pendingVersions: [CourtID: Int] = [:]
    private var nextNumber = 1
    /// Courts relayed from a venue node, with the venue's name (what a refusal names): shown, never stored here,
    /// never changed here.
    private var relayed: [CourtID: String] = [:]
    /// Courts whose "next game" is being made (between the check and the new game on the court): another "next"
    /// for them is refused, so one finished game makes one next game.
    private(set) var makingNext: Set<CourtID> = []

    private final class CourtEntry {
        let presenter: CourtPresenter
        let feed: GameFeed

        init(presenter: CourtPresenter, feed: GameFeed) {
            self.presenter = presenter
            self.feed = feed
        }
    }

    /// The ids of the courts, readable from any loop: routes answer 404 for an unknown court at once.
    let directory: CourtDirectory

    init(
        context: LoopContext, store: any CourtStore, restoring stored: [StoredCourt], directory: CourtDirectory,
        group: EventLoopGroup, metrics: ServerMetrics, idPrefix: String = "",
        clock: @escaping @Sendable () -> Timestamp
    ) {
        self.context = context
        self.idPrefix = idPrefix
        self.directory = directory
        self.store = store
        self.group = group
        self.metrics = metrics
        self.clock = clock
        for court in stored { apply(court) }
    }

    var bound: LoopBound<CourtsOwner> { LoopBound(self, loop: context.loop) }

    /// The court with `id` as last published, or nil.
    func court(_ id: CourtID) -> Court? {
        courts[id]?.presenter.court
    }

    /// The court with `id` as the next change will find it (a change being stored included), or nil.
    func current(_ id: CourtID) -> Court? {
        pending[id] ?? courts[id]?.presenter.court
    }

    /// The venue a court is relayed from, or nil for this node's own court.
    func relayedVenue(_ id: CourtID) -> String? {
        relayed[id]
    }

    /// Shows `courts`, relayed whole from `venue` (every id is the venue's, checked by the relay's machine): each
    /// is added, or its document follows the venue's value (a venue never removes a court). A store shared by the
    /// nodes of a cluster (`sharesRelayedCourts`) stores them first, so every node shows them (through the shared
    /// feed) at the versions it stored; otherwise nothing is stored: the venue sends its courts again on each
    /// connection. `completion` gets, on this loop, the ids not shown for want of room (`maxRelayedCourts`), or
    /// the store's failure (nothing shown: the venue's next message or connection sends them again).
    func relay(
        _ courts: [Court], venue: String, completion: @escaping (Result<[CourtID], CourtStoreError>) -> Void
    ) {
        guard store.sharesRelayedCourts else { return completion(.success(showRelayed(courts, venue: venue))) }
        let owner = bound
        let completion = LoopBound(completion, loop: context.loop)
        store.saveRelayed(courts, venue: venue, limit: Self.maxRelayedCourts) { result in
            owner.loop.execute { _ in
                completion.value(
                    result.map { stored in
                        zip(courts, stored).filter { !($1.map(owner.value.apply) ?? false) }.map(\.0.id)
                    })
            }
        }
    }

    /// Shows `courts` relayed from `venue` from memory, each one version past the one shown.
    private func showRelayed(_ courts: [Court], venue: String) -> [CourtID] {
        var refused: [CourtID] = []
        for court in courts
        where !apply(
            StoredCourt(court: court, version: (versions[court.id] ?? 0) + 1, relayedFrom: venue))
        {
            refused.append(court.id)
        }
        return refused
    }

    /// Whether the court relayed from `venue` with `id` may be shown: it is shown already, or there is room for it
    /// (`maxRelayedCourts`); never over a court of this node's own.
    private func admitRelayed(_ id: CourtID, venue: String) -> Bool {
        if courts[id] != nil { return relayed[id] != nil }
        guard relayed.count < Self.maxRelayedCourts else { return false }
        relayed[id] = venue
        return true
    }

    /// Marks the court's "next game" as being made; false when it already is.
    func beginNext(_ id: CourtID) -> Bool {
        makingNext.insert(id).inserted
    }

    func endNext(_ id: CourtID) {
        makingNext.remove(id)
    }

    /// COURT with the court's page links.
    private static func listed(_ presenter: CourtPresenter) -> JSONValue {
        var members = presenter.document.objectValue ?? [:]
        members["links"] = links(presenter.court.id)
        return .object(members)
    }

    /// `{"display","spectator","join"}`: the pages that follow a court, and where teams call "next".
    static func links(_ id: CourtID) -> JSONValue {
        let query = "?court=\(id.rawValue)"
        return [
            "display": .string("/display.html\(query)"), "spectator": .string("/game.html\(query)"),
            "join": .string("/join.html\(query)"),
        ]
    }

    /// Creates a court named `name` whose displays show the join code with the key of digest `displayKeySHA256`
    /// (nil: teams join through the admin); `completion` runs on this loop once it is stored. Another node's court
    /// stored under the same id meanwhile is shown, and the court takes the next number.
    func create(
        name: String, joining: QueueJoining, displayKeySHA256: String?, attempt: Int = 1,
        completion: @escaping (Result<Court, CourtRequestError>) -> Void
    ) {
        guard order.count - relayed.count + pending.keys.filter({ courts[$0] == nil }).count < Self.maxCourts else {
            return completion(.failure(.tooManyCourts(limit: Self.maxCourts)))
        }
        let id = CourtID("\(idPrefix)court-\(nextNumber)")
        let court: Court
        do {
            court = try Court(id: id, name: name, joining: joining, displayKeySHA256: displayKeySHA256)
        } catch {
            return completion(.failure(.invalid(error)))
        }
        nextNumber += 1
        save(court) { [unowned self] result in
            switch result {
            case .success(let version):
                show(StoredCourt(court: court, version: version))
                completion(.success(court))
            case .failure(.storage(.conflict)) where attempt < Self.maxAttempts:
                create(
                    name: name, joining: joining, displayKeySHA256: displayKeySHA256, attempt: attempt + 1,
                    completion: completion)
            case .failure(.storage(.full(let limit))):
                completion(.failure(.tooManyCourts(limit: limit)))
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    /// Changes the court with `id` by `change` (which may refuse), stores the result, then publishes it.
    func change(
        _ id: CourtID, _ change: @escaping (inout Court) throws(CourtRequestError) -> Void, attempt: Int = 1,
        completion: @escaping (Result<Court, CourtRequestError>) -> Void
    ) {
        guard var court = pending[id] ?? courts[id]?.presenter.court else {
            return completion(.failure(.unknownCourt(id)))
        }
        if let venue = relayed[id] { return completion(.failure(.relayedCourt(id, venue: venue))) }
        do {
            try change(&court)
        } catch {
            return completion(.failure(error))
        }
        save(court) { [unowned self] result in
            switch result {
            case .success(let version):
                show(StoredCourt(court: court, version: version))
                completion(.success(court))
            case .failure(.storage(.conflict)) where attempt < Self.maxAttempts:
                self.change(id, change, attempt: attempt + 1, completion: completion)
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    /// A court as some node stored it (read from the shared feed): shown when newer than what is shown; a court
    /// relayed from a venue read-only, as the node holding the venue's relay shows it. False when it is refused:
    /// a relayed court past `maxRelayedCourts` or over a court of this node's own, or this node's own court over a
    /// relayed one.
    @discardableResult
    func apply(_ stored: StoredCourt) -> Bool {
        if let venue = stored.relayedFrom {
            guard admitRelayed(stored.court.id, venue: venue) else { return false }
        } else if relayed[stored.court.id] != nil {
            return false
        }
        show(stored)
        return true
    }

    /// Sends the subscriber the court's snapshot, then every later patch; false when there is no such court.
    func join(_ id: CourtID, _ subscriber: LoopBound<any JoiningSubscriber>) -> Bool {
        guard let entry = courts[id] else { return false }
        let snapshot = [entry.presenter.snapshot()]
        let feed = entry.feed
        if subscriber.loop === context.loop {
            subscriber.value.join(catchUp: snapshot, feed: feed, context: context)
        } else {
            subscriber.loop.execute { context in subscriber.value.join(catchUp: snapshot, feed: feed, context: context)
            }
        }
        return true
    }

    /// Shows `stored`: a court not shown yet is added, a shown one updated when `stored` is newer.
    private func show(_ stored: StoredCourt) {
        let court = stored.court
        guard let entry = courts[court.id] else {
            versions[court.id] = stored.version
            add(court)
            return
        }
        guard stored.version > versions[court.id] ?? 0 else { return }
        versions[court.id] = stored.version
        if let patch = entry.presenter.update(court) {
            entry.feed.publish(patch, context: context)
            publishBytes(entry.presenter)
        }
    }

    private func add(_ court: Court) {
        courts[court.id] = CourtEntry(
            presenter: CourtPresenter(court: court, clock: clock), feed: GameFeed(group: group, metrics: metrics))
        order.append(court.id)
        if let entry = courts[court.id] { publishBytes(entry.presenter) }
        let own = idPrefix + "court-"
        if court.id.rawValue.hasPrefix(own), let number = Int(court.id.rawValue.dropFirst(own.count)) {
            nextNumber = max(nextNumber, number + 1)
        }
    }

    /// Encodes the court's document once for every reader (`CourtDirectory`).
    private func publishBytes(_ presenter: CourtPresenter) {
        directory.publish(
            presenter.court, document: presenter.document.canonicalBytes,
            listed: Self.listed(presenter).canonicalBytes)
    }

    /// Stores `court` over the version the change started from; `then` gets the new version on this loop. A
    /// conflict shows what is stored and forgets the values being stored (each of their saves conflicts too, and
    /// starts again from what is shown).
    private func save(_ court: Court, then: @escaping (Result<Int, CourtRequestError>) -> Void) {
        let id = court.id
        let over = pendingVersions[id] ?? versions[id] ?? 0
        pending[id] = court
        pendingVersions[id] = over + 1
        let owner = bound
        let then = LoopBound(then, loop: context.loop)
        store.save(court, over: over, limit: Self.maxCourts) { result in
            owner.loop.execute { _ in
                let owner = owner.value
                if owner.pending[id] == court, owner.pendingVersions[id] == over + 1 {
                    owner.pending[id] = nil
                    owner.pendingVersions[id] = nil
                }
                if case .failure(.conflict(let current)) = result {
                    owner.pending[id] = nil
                    owner.pendingVersions[id] = nil
                    owner.show(current)
                }
                then.value(result.mapError { .storage($0) })
            }
        }
    }
}

@available(*, unavailable)
extension CourtsOwner: Sendable {}
