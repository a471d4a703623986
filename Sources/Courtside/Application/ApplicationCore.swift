import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRedisJournal
import CourtsideViewModels
import Synchronization

/// Everything the routes and the public API share, Sendable: the games, the lobby, the journal, the limits.
/// `CourtsideApplication` owns one and the server that routes to it.
final class ApplicationCore: Sendable {
    let configuration: ServerConfiguration
    let registry: GameRegistry
    let lobby: LoopBound<LobbyOwner>
    /// The courts (docs/protocol.md, "Courts"), on the lobby's loop.
    let courts: LoopBound<CourtsOwner>
    /// Which courts exist, readable on any loop.
    let courtDirectory: CourtDirectory
    let services: GameServices
    let limiter: ConnectionLimiter
    let origins: OriginPolicy
    /// Which sites may show the spectator feeds (`--embed-origins`).
    let embed: EmbedPolicy
    /// Command rate per scorer token (keyed by game), whichever socket carries it (docs/server.md, "Limits").
    let scorerCommandRates: TokenBucketTable
    /// `POST …/commands` rate per client address (docs/server.md, "Limits").
    let addressCommandRates: TokenBucketTable
    let authenticationThrottle = AuthenticationThrottle()
    /// Games archived (at start or since), for `GET /api/games?status=archived` (the archive).
    let archivedGames = ArchivedGames()
    /// `POST /api/courts/{id}/queue` per client address (the pickup queue): a team or two at once, then one a minute.
    let queueRates = TokenBucketTable(burst: 3, ratePerSecond: 1.0 / 60)
    private let adminTokenSHA256: [UInt8]
    /// Games whose journal write failed and is not yet stored again, with the error.
    private let failedGames = Mutex<[GameID: String]>([:])
    /// The last game creation the journal refused, until one succeeds.
    private let creationFailure = Mutex<String?>(nil)
    /// Games whose stored records could not be read back at start, with the problem (`quarantine`).
    private let quarantined = Mutex<[GameID: String]>([:])
    private let stopping = Atomic<Bool>(false)
    /// Whether the shared store (Redis) answers, when there is one.
    let storeProbe: StoreProbe?
    /// The scheduler of the sockets on a loop (their timers, their time), and of the archiver's checks on the
    /// lobby's loop: the loop itself, or a test's.
    let socketScheduler: @Sendable (LoopContext) -> any LoopScheduler
    /// The webhooks and their delivery threads; nil with a journal that is neither SQLite nor Redis (tests).
    let webhooks: WebhookService?
    /// The venues this node relays (docs/relay.md); nil with a journal other than SQLite (under `--redis`).
    let venues: VenueDirectory?
    /// The relay endpoint (docs/relay.md), set once at start when there are venues.
    let relayHub = Mutex<RelayHub?>(nil)
    /// A venue node's uplink state (`--upstream`), for `/healthz`; nil on a node without one.
    let uplink = Mutex<UplinkStatus?>(nil)
    /// Per relayed game, the highest event `seq` the journal stored (restored at start, raised by the relay).
    let relayHeads = Mutex<[GameID: Int]>([:])

    init(
        configuration: ServerConfiguration, adminToken: String, registry: GameRegistry, lobby: LoopBound<LobbyOwner>,
        courts: LoopBound<CourtsOwner>, courtDirectory: CourtDirectory, services: GameServices,
        storeProbe: StoreProbe? = nil, webhooks: WebhookService? = nil, venues: VenueDirectory? = nil,
        socketScheduler: @escaping @Sendable (LoopContext) -> any LoopScheduler = { EventLoopScheduler(context: $0) }
    ) {
        self.venues = venues
        self.storeProbe = storeProbe
        self.socketScheduler = socketScheduler
        self.webhooks = webhooks
        self.configuration = configuration
        self.registry = registry
        self.lobby = lobby
        self.courts = courts
        self.courtDirectory = courtDirectory
        self.services = services
        self.limiter = ConnectionLimiter(limit: configuration.maxConnectionsPerAddress)
        self.origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
        self.embed = EmbedPolicy(embedOrigins: configuration.embedOrigins)
        self.scorerCommandRates = TokenBucketTable(
            burst: configuration.commandBurst, ratePerSecond: configuration.commandsPerSecond)
        self.addressCommandRates = TokenBucketTable(
            burst: configuration.commandBurst, ratePerSecond: configuration.commandsPerSecond)
        self.adminTokenSHA256 = SecretToken.sha256(adminToken)
    }

    var metrics: ServerMetrics { services.metrics }
    var logger: Logger { services.logger }

    func acceptsAdminToken(_ token: String) -> Bool {
        SecretToken.matches(token, digest: adminTokenSHA256)
    }

    func gameFailed(_ id: GameID, problem: String) {
        failedGames.withLock { $0[id] = problem }
    }

    func gameRecovered(_ id: GameID) {
        failedGames.withLock { $0[id] = nil }
    }

    /// Why `/healthz` fails, as stable codes: `redis` while the shared store has not answered for 2 s (the node
    /// can neither store nor follow the other nodes; with several partitions, only one that other nodes reach:
    /// `StoreProbe`), `storage` while the journal refuses writes (`storageProblems`).
    var healthReasons: [String] {
        var reasons: [String] = []
        if redisProblem != nil { reasons.append("redis") }
        if !storageProblems.isEmpty { reasons.append("storage") }
        return reasons
    }

    /// Redis (a partition the other nodes reach) has not answered for the threshold: the problem as a sentence,
    /// else nil.
    var redisProblem: String? {
        storeProbe?.problem
    }

    /// What keeps the server from storing what it serves, for `/healthz`: failed games (their writes are being
    /// retried) and a refused game creation; empty when the journal writes.
    var storageProblems: [String] {
        let games = failedGames.withLock { $0 }.sorted { $0.key < $1.key }.map {
            "game \($0.key) cannot be saved: \($0.value)"
        }
        return games + (creationFailure.withLock { $0 }.map { ["the journal refused a new game: \($0)"] } ?? [])
    }

    /// Sets a game aside at start: it is not served, its id is never given to a new game, and every route to it
    /// answers `APIResponse.quarantined` naming the problem.
    func quarantine(_ game: QuarantinedGame, logger: Logger) {
        quarantined.withLock { $0[game.id] = game.problem }
        registry.reserve(game.id)
        logger.error(
            "game quarantined: its stored records cannot be used", ["game": game.id.rawValue, "problem": game.problem])
    }

    /// The stored game replayed, or nil after quarantining it (its events do not replay to a valid game).
    func replayOrQuarantine(_ journaled: JournaledGame) -> Game? {
        do {
            return try journaled.replayed()
        } catch {
            quarantine(
                QuarantinedGame(id: journaled.id, problem: "stored game \(journaled.id) does not replay: \(error)"),
                logger: logger)
            return nil
        }
    }

    /// Why `id` is quarantined, or nil.
    func quarantineProblem(_ id: GameID) -> String? {
        quarantined.withLock { $0[id] }
    }

    /// Every quarantined game and its problem, by id.
    var quarantinedGames: [GameID: String] { quarantined.withLock { $0 } }

    /// Whether a game has a write not stored (failed, not yet retried): then a shutdown may not call itself clean
    /// (docs/server.md). A game whose retries stored everything published is whole again.
    var anyGameFailed: Bool { !failedGames.withLock { $0.isEmpty } }

    func beginStopping() {
        stopping.store(true, ordering: .releasing)
    }

    /// Whether the server has begun to stop (timers that talk to the store end at their next turn).
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    // MARK: Games

    /// Validates the request with the creator view model, stores the game, installs its owner and lists it; the
    /// completion runs on the journal's thread (or inline), after the game is durable and reachable.
    func createGame(
        _ request: GameCreationRequest, completion: @escaping @Sendable (Result<CreatedGame, GameCreationError>) -> Void
    ) {
        guard !stopping.load(ordering: .acquiring) else {
            completion(.failure(.shuttingDown))
            return
        }
        guard request.json.objectValue != nil else {
            completion(.failure(.notAnObject))
            return
        }
        let creator = GameCreatorViewModel()
        creator.fill(from: request.json)
        // Validated before an id is taken, so refused requests leave no gaps in the numbering.
        if case .failure(let errors) = creator.makeSetup(id: "unnumbered") {
            completion(.failure(.invalid(errors)))
            return
        }
        guard let shared = services.shared else {
            create(request, id: registry.makeID(), completion: completion)
            return
        }
        // Ids come from one counter in the shared store, so two nodes never make the same one (docs/redis.md).
        shared.nextGameID { [self] result in
            switch result {
            case .success(let id):
                create(request, id: id, completion: completion)
            case .failure(let error):
                logger.error("no game id from the shared journal", ["error": "\(error)"])
                creationFailure.withLock { $0 = "\(error)" }
                completion(.failure(.storage(error)))
            }
        }
    }

    private func create(
        _ request: GameCreationRequest, id: GameID,
        completion: @escaping @Sendable (Result<CreatedGame, GameCreationError>) -> Void
    ) {
        let creator = GameCreatorViewModel()
        creator.fill(from: request.json)
        guard case .success(let setup) = creator.makeSetup(id: id) else {
            preconditionFailure("Invalid state: inputs valid for one id but not for \(id)")
        }
        let token = SecretToken.generate()
        let digest = SecretToken.sha256(token)
        let createdAt = services.clock()
        let record = GameRecord(setup: setup, scorerTokenSHA256: digest, createdAt: createdAt)
        services.journal.createGame(record) { [self] result in
            switch result {
            case .failure(let error):
                logger.error("game not created", ["game": id.rawValue, "error": "\(error)"])
                creationFailure.withLock { $0 = "\(error)" }
                completion(.failure(.storage(error)))
            case .success:
                creationFailure.withLock { $0 = nil }
                install(
                    game: Game(setup: setup), seq: 0, now: createdAt, restored: false, digest: digest,
                    isArchived: false)
                logger.info("game created", ["game": id.rawValue])
                completion(.success(CreatedGame(id: id, scorerToken: token)))
            }
        }
    }

    /// Installs a game rebuilt from the journal (`game`, replayed from `journaled`) numbered from `seq`; each
    /// accepted command id keeps the `seq` that acked it.
    @discardableResult
    func installRestored(_ journaled: JournaledGame, game: Game, seq: Int) -> GameHandle {
        var acks: [CommandID: Int] = [:]
        for stored in journaled.events {
            if let commandID = stored.event.commandID { acks[commandID] = stored.presentationSequence }
        }
        if journaled.isArchived { archivedGames.add(GameSummary(game: game)) }
        let relayedFrom = journaled.record.metadata[GameRecord.relayedFromKey]
        if relayedFrom != nil { relayHeads.withLock { $0[journaled.id] = journaled.lastEventSequence } }
        return install(
            game: game, seq: seq, now: CourtsideApplication.restoredInstant(of: journaled, game: game),
            restored: true, restoredAcks: acks, digest: journaled.record.scorerTokenSHA256,
            isArchived: journaled.isArchived, relayedFrom: relayedFrom)
    }

    /// Installs a game's owner on its loop and publishes its handle (the owner is in place before any task that
    /// finds the handle reaches the loop); a restored archived game's owner waits for its first task instead.
    @discardableResult
    func install(
        game: Game, seq: Int, now: Timestamp, restored: Bool, restoredAcks: [CommandID: Int] = [:], digest: [UInt8],
        isArchived: Bool, relayedFrom: String? = nil
    ) -> GameHandle {
        let handle = registry.makeHandle(id: game.id, scorerTokenSHA256: digest, relayedFrom: relayedFrom)
        let services = self.services
        let make: @Sendable (LoopContext) -> GameOwner = { context in
            GameOwner(
                game: game, seq: seq, now: now, restored: restored, restoredAcks: restoredAcks,
                scorerTokenSHA256: digest, isArchived: isArchived, relayedFrom: relayedFrom, services: services,
                context: context)
        }
        // A game restored archived is built on its first read: it takes no commands, time nor lobby line, and its
        // summary is already in the archive's list.
        if restored, isArchived { handle.installDormant(make) } else { handle.install(make) }
        registry.insert(handle)
        return handle
    }

    /// Whether `id` lives on a Redis partition that has not answered since the start (docs/cluster.md, "Past one
    /// Redis"): not unknown, only unreachable for now.
    func isWaitingForPartition(of id: GameID) -> Bool {
        (services.shared as? PartitionedRedisJournal)?.isWaiting(for: id) ?? false
    }

    /// Applies a command to a game, as the scorer socket does; `completion` gets the ack or error JSON, on the
    /// game's loop, after the command's event is durable.
    func submit(
        command: [UInt8], toGame id: GameID, from context: LoopContext?,
        completion: @escaping @Sendable (CommandReply) -> Void
    ) {
        guard let handle = registry.handle(id) else {
            if isWaitingForPartition(of: id) {
                metrics.commandRejected(code: WireErrorCode.unavailable.rawValue)
                completion(
                    .refusal(
                        .unavailable, "game \(id) is on a Redis partition that has not answered yet", bytes: command))
                return
            }
            metrics.commandRejected(code: WireErrorCode.unknownGame.rawValue)
            completion(.refusal(.unknownGame, "no game \"\(id)\"", bytes: command))
            return
        }
        let request = CommandRequest(bytes: command, receivedAt: .now, reply: completion)
        handle.withOwner(from: context) { owner in owner.submit(request) }
    }

    /// Reopens the locked game `handle` (the admin route), in order with its commands, answering once durable.
    func reopen(_ handle: GameHandle, completion: @escaping @Sendable (CommandReply) -> Void) {
        let request = CommandRequest(bytes: [], receivedAt: .now, reply: completion, isReopen: true)
        handle.withOwner(from: nil) { owner in owner.submit(request) }
    }
}
