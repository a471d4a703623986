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
/// change is lost. Without a store (`--redis`) every change is refused. Loop-confined.
///
/// Reads do not come here: each published version of a court is encoded once into the `CourtDirectory`, which any
/// loop answers from. A court weighs at most `Court.maxDocumentBytes` and there are at most `maxCourts`, so what the
/// courts hold in memory and send is bounded.
final class CourtsOwner {
    /// Courts a server keeps: more than a venue has, few enough that the list stays small (2 MiB at most).
    static let maxCourts = 64
    let context: LoopContext
    private let store: (any CourtStore)?
    private let group: EventLoopGroup
    private let metrics: ServerMetrics
    private let clock: @Sendable () -> Timestamp
    private var courts: [CourtID: CourtEntry] = [:]
    private var order: [CourtID] = []
    private var pending: [CourtID: Court] = [:]
    private var nextNumber = 1
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
        context: LoopContext, store: (any CourtStore)?, restoring stored: [Court], directory: CourtDirectory,
        group: EventLoopGroup, metrics: ServerMetrics, clock: @escaping @Sendable () -> Timestamp
    ) {
        self.context = context
        self.directory = directory
        self.store = store
        self.group = group
        self.metrics = metrics
        self.clock = clock
        for court in stored { add(court) }
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
    /// (nil: teams join through the admin); `completion` runs on this loop once it is stored.
    func create(
        name: String, joining: QueueJoining, displayKeySHA256: String?,
        completion: @escaping (Result<Court, CourtRequestError>) -> Void
    ) {
        guard store != nil else { return completion(.failure(.notStoredInRedis)) }
        guard order.count + pending.keys.filter({ courts[$0] == nil }).count < Self.maxCourts else {
            return completion(.failure(.tooManyCourts(limit: Self.maxCourts)))
        }
        let id = CourtID("court-\(nextNumber)")
        let court: Court
        do {
            court = try Court(id: id, name: name, joining: joining, displayKeySHA256: displayKeySHA256)
        } catch {
            return completion(.failure(.invalid(error)))
        }
        nextNumber += 1
        pending[id] = court
        save(court) { [unowned self] result in
            if case .success = result { add(court) }
            completion(result.map { court })
        }
    }

    /// Changes the court with `id` by `change` (which may refuse), stores the result, then publishes it.
    func change(
        _ id: CourtID, _ change: (inout Court) throws(CourtRequestError) -> Void,
        completion: @escaping (Result<Court, CourtRequestError>) -> Void
    ) {
        guard store != nil else { return completion(.failure(.notStoredInRedis)) }
        guard var court = pending[id] ?? courts[id]?.presenter.court else {
            return completion(.failure(.unknownCourt(id)))
        }
        do {
            try change(&court)
        } catch {
            return completion(.failure(error))
        }
        pending[id] = court
        save(court) { [unowned self] result in
            if case .success = result, let entry = courts[id], let patch = entry.presenter.update(court) {
                entry.feed.publish(EncodedMessage(patch), context: context)
                publishBytes(entry.presenter)
            }
            completion(result.map { court })
        }
    }

    /// Sends the subscriber the court's snapshot, then every later patch; false when there is no such court.
    func join(_ id: CourtID, _ subscriber: LoopBound<any JoiningSubscriber>) -> Bool {
        guard let entry = courts[id] else { return false }
        let snapshot = [EncodedMessage(entry.presenter.snapshot())]
        let feed = entry.feed
        if subscriber.loop === context.loop {
            subscriber.value.join(catchUp: snapshot, feed: feed, context: context)
        } else {
            subscriber.loop.execute { context in subscriber.value.join(catchUp: snapshot, feed: feed, context: context)
            }
        }
        return true
    }

    private func add(_ court: Court) {
        courts[court.id] = CourtEntry(
            presenter: CourtPresenter(court: court, clock: clock), feed: GameFeed(group: group, metrics: metrics))
        order.append(court.id)
        if let entry = courts[court.id] { publishBytes(entry.presenter) }
        if court.id.rawValue.hasPrefix("court-"), let number = Int(court.id.rawValue.dropFirst(6)) {
            nextNumber = max(nextNumber, number + 1)
        }
    }

    /// Encodes the court's document once for every reader (`CourtDirectory`).
    private func publishBytes(_ presenter: CourtPresenter) {
        directory.publish(
            presenter.court.id, document: presenter.document.canonicalBytes,
            listed: Self.listed(presenter).canonicalBytes)
    }

    private func save(_ court: Court, then: @escaping (Result<Void, CourtRequestError>) -> Void) {
        guard let store else { return then(.failure(.notStoredInRedis)) }
        let owner = bound
        let then = LoopBound(then, loop: context.loop)
        store.save(court) { result in
            owner.loop.execute { _ in
                let owner = owner.value
                if owner.pending[court.id] == court { owner.pending[court.id] = nil }
                then.value(result.mapError { .storage($0) })
            }
        }
    }
}

@available(*, unavailable)
extension CourtsOwner: Sendable {}
