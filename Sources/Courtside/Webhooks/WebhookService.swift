import CourtsideJournal
import CourtsideNet
import CourtsideViewModels
import Foundation
import Synchronization

/// The webhooks of one node: their records and cursors (`SQLiteWebhookStore`, beside the journal), one
/// `WebhookWorker` thread each, and the operations of `/api/webhooks`. Every operation touches SQLite, so the routes
/// run them on `queue`, never on an event loop.
final class WebhookService: Sendable {
    /// The most webhooks kept: each has a delivery thread, so their number bounds the threads and the journal reads.
    static let maxWebhooks = 64

    let queue = DispatchQueue(label: "courtside.webhooks")
    private let environment: WebhookWorker.Environment
    private let watch: WebhookJournalWatch
    /// Creation order with their workers; changed only on `queue`, read from there and at shutdown.
    private let workers = Mutex<[(id: String, worker: WebhookWorker)]>([])

    /// Opens the store in `directory` and a reader of the journal at `journalPath`, and starts a worker per stored
    /// webhook; `tls` is the client context for `https` receivers.
    init(
        directory: String, journalPath: String, allowsPrivateAddresses: Bool, tls: TLSContext?, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = WebhookService.wallClock
    ) throws(JournalError) {
        let store = try SQLiteWebhookStore(directory: directory)
        let reader = try SQLiteJournalReader(path: journalPath)
        let watch = try WebhookJournalWatch(reader: reader, logger: logger)
        self.watch = watch
        environment = WebhookWorker.Environment(
            store: store, reader: reader, games: { watch.current },
            client: WebhookHTTPClient(policy: WebhookAddressPolicy(allowsPrivate: allowsPrivateAddresses), tls: tls),
            clock: clock, logger: logger)
        var started: [(id: String, worker: WebhookWorker)] = []
        for (id, record) in try store.loadAll() {
            guard let webhook = try? Webhook(record: record) else {
                logger.error("webhook record unreadable; skipped", ["webhook": id])
                continue
            }
            let worker = WebhookWorker(webhook: webhook, environment: environment)
            worker.start()
            started.append((id, worker))
        }
        workers.withLock { $0 = started }
        // Weak: the watch lives as long as the service, not the other way round.
        watch.listen { [weak self] in
            for (_, worker) in self?.workers.withLock({ $0 }) ?? [] { worker.nudge() }
        }
        watch.start()
    }

    @Sendable static func wallClock() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Stops every worker (each after its current attempt) and closes the store.
    func shutdown() {
        let all = workers.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for (_, worker) in all { worker.stop() }
        watch.stop()
        // Closed before the journal, so the journal's writer stays the last connection to its file (SQLite
        // checkpoints the WAL when the last one closes). A thread still finishing meets `.closed`, not a crash.
        environment.reader.close()
        environment.store.close()
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
            try environment.store.save(id: webhook.id, record: webhook.record, cursors: cursors)
        } catch {
            throw .storage(error)
        }
        let worker = WebhookWorker(webhook: webhook, environment: environment)
        workers.withLock { $0.append((webhook.id, worker)) }
        worker.start()
        var answer = webhook.json.objectValue ?? [:]
        answer["secret"] = .string(webhook.secret)
        return .object(answer)
    }

    func list() -> JSONValue {
        let all = workers.withLock { $0.map(\.worker) }
        return ["webhooks": .array(all.map(\.current.json))]
    }

    func get(_ id: String) throws(WebhookServiceError) -> JSONValue {
        guard let worker = worker(id) else { throw .unknown(id) }
        return worker.current.json
    }

    /// Changes members of a webhook; `{"state":"active"}` resumes a failing or paused one.
    func patch(_ id: String, _ body: [UInt8]) throws(WebhookServiceError) -> JSONValue {
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
            try environment.store.save(id: id, record: webhook.record)
        } catch {
            throw .storage(error)
        }
        worker.update(webhook)
        return webhook.json
    }

    func delete(_ id: String) throws(WebhookServiceError) {
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
        guard let worker = worker(id) else { throw .unknown(id) }
        return ["deliveries": .array(worker.recentAttempts.map(\.json))]
    }

    /// `{"game":ID,"since":N}`: delivers the game's events after sequence N again (since 0: its creation too).
    func replay(_ id: String, _ body: [UInt8]) throws(WebhookServiceError) -> JSONValue {
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
        worker.replay(game: game, from: since == 0 ? 0 : since + 1)
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
