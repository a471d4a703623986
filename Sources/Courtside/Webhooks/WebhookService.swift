import CourtsideJournal
import CourtsideNet
import CourtsideViewModels
import Foundation
import Synchronization

/// The webhooks of one node: their records and cursors (a `WebhookStore`: `SQLiteWebhookStore` beside the
/// journal, or the shared store in Redis under `--redis`), one `WebhookWorker` thread each, and the operations of
/// `/api/webhooks`. Every operation touches the store, so the routes run them on `queue`, never on an event loop.
///
/// With a shared store every node runs a worker per webhook, but a worker delivers only while its node holds the
/// webhook's lease (`WebhookLeases`); the workers follow the store's webhooks (created, changed or deleted on any
/// node) through the journal watch, and every operation reads the store first, so every node answers alike.
final class WebhookService: Sendable {
    /// The most webhooks kept: each has a delivery thread, so their number bounds the threads and the journal reads.
    static let maxWebhooks = 64

    let queue = DispatchQueue(label: "courtside.webhooks")
    private let environment: WebhookWorker.Environment
    private let watch: WebhookJournalWatch
    /// Creation order with their workers; changed only under `reconciling` or on `queue`, read from anywhere.
    private let workers = Mutex<[(id: String, worker: WebhookWorker)]>([])
    /// Serializes bringing the workers in line with the store (from the watch thread and from `queue`).
    private let reconciling = Mutex<Void>(())

    /// Opens the store in `directory` and a reader of the SQLite journal at `journalPath` (one node).
    convenience init(
        directory: String, journalPath: String, allowsPrivateAddresses: Bool, tls: TLSContext?, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = WebhookService.wallClock
    ) throws(JournalError) {
        let store = try SQLiteWebhookStore(directory: directory)
        let reader: SQLiteJournalReader
        do {
            reader = try SQLiteJournalReader(path: journalPath)
        } catch {
            store.close()
            throw error
        }
        try self.init(
            store: store, reader: reader, node: "", allowsPrivateAddresses: allowsPrivateAddresses, tls: tls,
            logger: logger, clock: clock)
    }

    /// Starts a worker per stored webhook, following the journal through `reader`; `tls` is the client context for
    /// `https` receivers. With a shared store, `node` names this node in its lease tokens, held `leaseMs` at a time.
    init(
        store: any WebhookStore, reader: any JournalFollower, node: String,
        leaseMs: Int = WebhookLeases.defaultDurationMs,
        allowsPrivateAddresses: Bool, tls: TLSContext?, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = WebhookService.wallClock
    ) throws(JournalError) {
        let watch = try WebhookJournalWatch(reader: reader, store: store, logger: logger)
        self.watch = watch
        let leases =
            store.isShared ? WebhookLeases(store: store, node: node, durationMs: leaseMs, logger: logger) : nil
        environment = WebhookWorker.Environment(
            store: store, reader: reader, games: { watch.current }, leases: leases,
            client: WebhookHTTPClient(policy: WebhookAddressPolicy(allowsPrivate: allowsPrivateAddresses), tls: tls),
            clock: clock, logger: logger)
        do throws(JournalError) {
            reconcile(with: try store.loadAll())
        } catch .unavailable(let reason) {
            // The store is away at start (a Redis partition down): the watch's first round that reaches it says the
            // webhooks changed, and they are read then.
            logger.error("webhooks wait for their store", ["error": reason])
        }
        // Weak: the watch and the leases live as long as the service, not the other way round.
        watch.listen { [weak self] webhooksChanged in
            guard let self else { return }
            if webhooksChanged {
                // Another node created, changed, deleted or replayed a webhook: follow it, and read the cursors again.
                do {
                    self.reconcile(with: try self.environment.store.loadAll())
                } catch {
                    logger.error("webhook storage failed", ["error": "\(error)"])
                }
            }
            for (_, worker) in self.workers.withLock({ $0 }) {
                if webhooksChanged { worker.cursorsChanged() } else { worker.nudge() }
            }
        }
        leases?.start { [weak self] id in self?.worker(id)?.cursorsChanged() }
        watch.start()
    }

    @Sendable static func wallClock() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Stops every worker (each after its current attempt), gives up this node's leases and closes the store.
    func shutdown() {
        let all = workers.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for (_, worker) in all { worker.stop() }
        watch.stop()
        environment.leases?.stop()
        // Closed before the journal, so the journal's writer stays the last connection to its file (SQLite
        // checkpoints the WAL when the last one closes). A thread still finishing meets `.closed`, not a crash.
        environment.reader.close()
        environment.store.close()
    }

    /// Brings the workers in line with `stored` (in creation order): a worker for each new webhook, the changed
    /// ones updated, the deleted ones stopped; the leases follow the same list.
    private func reconcile(with stored: [(id: String, record: String)]) {
        reconciling.withLock { _ in
            let current = workers.withLock { $0 }
            var next: [(id: String, worker: WebhookWorker)] = []
            for (id, record) in stored {
                guard let webhook = try? Webhook(record: record) else {
                    environment.logger.error("webhook record unreadable; skipped", ["webhook": id])
                    continue
                }
                if let existing = current.first(where: { $0.id == id })?.worker {
                    if existing.current != webhook { existing.update(webhook) }
                    next.append((id, existing))
                } else {
                    let worker = WebhookWorker(webhook: webhook, environment: environment)
                    worker.start()
                    next.append((id, worker))
                }
            }
            for (id, worker) in current where !next.contains(where: { $0.id == id }) { worker.stop() }
            workers.withLock { $0 = next }
            environment.leases?.want(next.map(\.id))
        }
    }

    /// With a shared store, reads the webhooks first (another node may have changed them).
    private func refresh() throws(WebhookServiceError) {
        guard environment.store.isShared else { return }
        do {
            reconcile(with: try environment.store.loadAll())
        } catch {
            throw .storage(error)
        }
    }

    private func worker(_ id: String) -> WebhookWorker? {
        workers.withLock { list in list.first { $0.id == id }?.worker }
    }

    // MARK: Operations (on `queue`)

    /// Creates a webhook; its answer is the only one that shows the secret.
    func create(_ body: [UInt8]) throws(WebhookServiceError) -> JSONValue {
        let fields = try WebhookServiceError.request { () throws(WebhookRequestError) in
            try WebhookFields(parsing: body, allowsState: false)
        }
        guard let url = fields.url else { throw .request(.invalidField("url", "is required")) }
        try WebhookServiceError.request { () throws(WebhookRequestError) in try environment.client.policy.check(url) }
        guard let events = fields.events else { throw .request(.invalidField("events", "is required")) }
        try refresh()
        guard workers.withLock({ $0.count }) < Self.maxWebhooks else {
            throw .request(.tooMany(limit: Self.maxWebhooks))
        }
        let secret = fields.secret ?? WebhookSignature.generate()
        let webhook = Webhook(
            id: "wh_" + SecretToken.generate(), url: url.text, events: events, games: fields.games ?? nil,
            secret: secret.printed, state: .active, createdAtMs: environment.clock())
        // The webhook starts after every event already stored: the past is what a replay is for.
        var cursors: [String: Int] = [:]
        do {
            for game in try environment.reader.games() { cursors[game.id] = game.lastSequence + 1 }
            try environment.store.save(id: webhook.id, record: webhook.record, creating: true, cursors: cursors)
        } catch {
            throw .storage(error)
        }
        reconciling.withLock { _ in
            guard !workers.withLock({ list in list.contains { $0.id == webhook.id } }) else { return }
            let worker = WebhookWorker(webhook: webhook, environment: environment)
            workers.withLock { $0.append((webhook.id, worker)) }
            environment.leases?.want(workers.withLock { $0.map(\.id) })
            worker.start()
        }
        var answer = webhook.json.objectValue ?? [:]
        answer["secret"] = .string(webhook.secret)
        return .object(answer)
    }

    func list() throws(WebhookServiceError) -> JSONValue {
        try refresh()
        let all = workers.withLock { $0.map(\.worker) }
        return ["webhooks": .array(all.map(\.current.json))]
    }

    func get(_ id: String) throws(WebhookServiceError) -> JSONValue {
        try refresh()
        guard let worker = worker(id) else { throw .unknown(id) }
        return worker.current.json
    }

    /// Changes members of a webhook; `{"state":"active"}` resumes a failing or paused one.
    func patch(_ id: String, _ body: [UInt8]) throws(WebhookServiceError) -> JSONValue {
        try refresh()
        guard let worker = worker(id) else { throw .unknown(id) }
        let fields = try WebhookServiceError.request { () throws(WebhookRequestError) in
            try WebhookFields(parsing: body, allowsState: true)
        }
        var webhook = worker.current
        if let url = fields.url {
            try WebhookServiceError.request { () throws(WebhookRequestError) in try environment.client.policy.check(url)
            }
            webhook.url = url.text
        }
        if let events = fields.events { webhook.events = events }
        if let games = fields.games { webhook.games = games }
        if let secret = fields.secret { webhook.secret = secret.printed }
        if let state = fields.state {
            webhook.state = state
            webhook.failure = nil
        }
        do {
            try environment.store.save(id: id, record: webhook.record, creating: false, cursors: [:])
        } catch {
            throw .storage(error)
        }
        worker.update(webhook)
        return webhook.json
    }

    func delete(_ id: String) throws(WebhookServiceError) {
        try refresh()
        guard let worker = worker(id) else { throw .unknown(id) }
        worker.stop()
        workers.withLock { $0.removeAll { $0.id == id } }
        do {
            try environment.store.delete(id: id)
        } catch {
            throw .storage(error)
        }
    }

    func deliveries(_ id: String) throws(WebhookServiceError) -> JSONValue {
        try refresh()
        guard let worker = worker(id) else { throw .unknown(id) }
        let stored: [String]?
        do {
            stored = try environment.store.attempts(ofWebhook: id)
        } catch {
            throw .storage(error)
        }
        // A shared store keeps every node's attempts (the node that delivers may be another one).
        guard let stored else { return ["deliveries": .array(worker.recentAttempts.map(\.json))] }
        return ["deliveries": .array(stored.compactMap { try? JSONValue(parsing: Array($0.utf8)) })]
    }

    /// `{"game":ID,"since":N}`: delivers the game's events after sequence N again (since 0: its creation too).
    func replay(_ id: String, _ body: [UInt8]) throws(WebhookServiceError) -> JSONValue {
        try refresh()
        guard let worker = worker(id) else { throw .unknown(id) }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .request(.badJSON("\(error)"))
        }
        guard let game = json["game"]?.stringValue, !game.isEmpty else {
            throw .request(.invalidField("game", "is required (a game id)"))
        }
        guard let since = json["since"].map({ $0.intValue }) ?? 0, since >= 0 else {
            throw .request(.invalidField("since", "must be a sequence number (an integer, 0 or more)"))
        }
        let known: Bool
        do {
            known = try environment.reader.games().contains { $0.id == game }
        } catch {
            throw .storage(error)
        }
        guard known else { throw .request(.invalidField("game", "\"\(game)\" is not a stored game")) }
        let next = since == 0 ? 0 : since + 1
        if environment.store.isShared {
            // Whichever node delivers: the stored cursor moves back, and the holder's next advance finds it moved
            // (every node's watch also sees the change and reads the cursors again).
            do {
                try environment.store.setCursor(webhook: id, game: game, seq: next)
            } catch {
                throw .storage(error)
            }
            worker.cursorsChanged()
        } else {
            worker.replay(game: game, from: next)
        }
        return ["webhook": .string(id), "game": .string(game), "since": .int(since)]
    }
}

/// Why a webhook operation failed, mapped to an answer by the routes.
enum WebhookServiceError: Error {
    case request(WebhookRequestError)
    case unknown(String)
    case storage(JournalError)

    static func request<T>(_ body: () throws(WebhookRequestError) -> T) throws(WebhookServiceError) -> T {
        do {
            return try body()
        } catch {
            throw .request(error)
        }
    }
}
