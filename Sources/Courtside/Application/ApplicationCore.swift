import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideViewModels
import Synchronization

/// Everything the routes and the public API share, Sendable: the games, the lobby, the journal, the limits.
/// `CourtsideApplication` owns one and the server that routes to it.
final class ApplicationCore: Sendable {
    let configuration: ServerConfiguration
    let registry: GameRegistry
    let lobby: LoopBound<LobbyOwner>
    let services: GameServices
    let limiter: ConnectionLimiter
    let origins: OriginPolicy
    private let adminTokenSHA256: [UInt8]
    private let failedGames = Mutex<Set<GameID>>([])
    private let stopping = Atomic<Bool>(false)

    init(
        configuration: ServerConfiguration, adminToken: String, registry: GameRegistry, lobby: LoopBound<LobbyOwner>,
        services: GameServices
    ) {
        self.configuration = configuration
        self.registry = registry
        self.lobby = lobby
        self.services = services
        self.limiter = ConnectionLimiter(limit: configuration.maxConnectionsPerAddress)
        self.origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
        self.adminTokenSHA256 = SecretToken.sha256(adminToken)
    }

    var metrics: ServerMetrics { services.metrics }
    var logger: Logger { services.logger }

    func acceptsAdminToken(_ token: String) -> Bool {
        SecretToken.matches(token, digest: adminTokenSHA256)
    }

    func gameFailed(_ id: GameID) {
        failedGames.withLock { _ = $0.insert(id) }
    }

    /// Whether every write was stored: only then may a shutdown call itself clean (docs/server.md).
    var anyGameFailed: Bool { !failedGames.withLock { $0.isEmpty } }

    func beginStopping() {
        stopping.store(true, ordering: .releasing)
    }

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
        let id = registry.makeID()
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
                completion(.failure(.storage(error)))
            case .success:
                install(
                    game: Game(setup: setup), seq: 0, now: createdAt, restored: false, digest: digest,
                    isArchived: false)
                logger.info("game created", ["game": id.rawValue])
                completion(.success(CreatedGame(id: id, scorerToken: token)))
            }
        }
    }

    /// Installs a game's owner on its loop and publishes its handle (the owner is in place before any task that
    /// finds the handle reaches the loop).
    @discardableResult
    func install(
        game: Game, seq: Int, now: Timestamp, restored: Bool, restoredAcks: [CommandID: Int] = [:], digest: [UInt8],
        isArchived: Bool
    ) -> GameHandle {
        let handle = registry.makeHandle(id: game.id, scorerTokenSHA256: digest)
        let services = self.services
        handle.install { context in
            GameOwner(
                game: game, seq: seq, now: now, restored: restored, restoredAcks: restoredAcks,
                scorerTokenSHA256: digest,
                isArchived: isArchived, services: services, context: context)
        }
        registry.insert(handle)
        return handle
    }

    /// Applies a command to a game, as the scorer socket does; `completion` gets the ack or error JSON, on the
    /// game's loop, after the command's event is durable.
    func submit(
        command: [UInt8], toGame id: GameID, from context: LoopContext?,
        completion: @escaping @Sendable (CommandReply) -> Void
    ) {
        guard let handle = registry.handle(id) else {
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
