import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRedisJournal
import CourtsideViewModels
import Foundation
import Synchronization

/// The Courtside server: the journal, one owner per game spread over the event loops, the lobby, and the HTTP and
/// WebSocket routes of docs/protocol.md. See docs/server.md for the design.
///
/// ```swift
/// let app = try CourtsideApplication(configuration: configuration, adminToken: token, logger: logger)
/// print("listening on \(app.url)")
/// app.runUntilSignal()
/// ```
public final class CourtsideApplication: Sendable {
    /// What it listens on, e.g. `http://127.0.0.1:8080/`.
    public let url: String
    /// The counters behind `/metrics`.
    public let metrics: ServerMetrics
    let core: ApplicationCore
    /// The HTTP server (the package's tests hand it in-process connections: `HTTPServer.adopt`).
    package let server: HTTPServer

    /// The application's routes and the loops they run on: a test hands them requests in memory (no socket).
    public var router: any HTTPRouter { server.router }
    public var loops: [EventLoop] { server.group.loops }
    private let group: EventLoopGroup
    private let journal: any GameJournal
    /// Follows the other nodes' writes when the journal is shared (Redis). Internal: tests stop it to hold a node
    /// behind the others.
    let tailer: SharedFeedTail?
    /// A venue node's relay to its public node (`--upstream`: docs/relay.md), on the first loop.
    private let uplink: LoopBound<VenueUplink>?
    private let courtStore: any CourtStore
    /// Publishes this node's spectator counts and reads every node's (a shared journal).
    private let markerPath: String
    private let isShutDown = Mutex(false)

    /// The file whose presence at start-up says the previous run stopped cleanly (every write stored).
    static let cleanShutdownMarker = "clean-shutdown"

    /// Opens the journal (`SQLiteJournal` in the data directory, or `PartitionedRedisJournal` over `redisURLs`),
    /// restores every game, and starts serving.
    public convenience init(configuration: ServerConfiguration, adminToken: String, logger: Logger)
        throws(ApplicationError)
    {
        let journal: any GameJournal
        // Courts live in the data directory's SQLite, or with the games in Redis (nil: the journal's own store).
        var courtStore: (any CourtStore)?
        if !configuration.redisURLs.isEmpty {
            journal = try Self.openPartitions(configuration)
        } else {
            do {
                journal = try SQLiteJournal(directory: configuration.dataDirectory)
            } catch {
                throw .journal(directory: configuration.dataDirectory, error)
            }
            do {
                courtStore = try SQLiteCourtStore(directory: configuration.dataDirectory)
            } catch {
                throw .courts(directory: configuration.dataDirectory, error)
            }
        }
        try self.init(
            configuration: configuration, adminToken: adminToken, logger: logger, journal: journal,
            courtStore: courtStore)
    }

    /// The same with another journal (tests wrap the in-memory one), a court store (nil: the journal's own, shared
    /// by every node in Redis, else in memory) and a wall clock (Unix milliseconds).
    public init(
        configuration: ServerConfiguration, adminToken: String, logger nodeLogger: Logger, journal: any GameJournal,
        courtStore: (any CourtStore)? = nil,
        clock: @escaping @Sendable () -> Timestamp = CourtsideApplication.wallClock,
        socketScheduler: (@Sendable (LoopContext) -> any LoopScheduler)? = nil
    ) throws(ApplicationError) {
        let shared = journal as? any SharedGameJournal
        // Every line names the node when several share one Redis (their logs are usually read together).
        let logger = shared.map { nodeLogger.with(["node": $0.nodeID]) } ?? nodeLogger
        self.journal = journal
        let courtStore: any CourtStore =
            courtStore ?? Self.redisPartitions(of: journal).map { RedisCourtStore(journal: $0[0]) }
            ?? InMemoryCourtStore()
        self.courtStore = courtStore
        let webhooks = try Self.startWebhooks(
            journal: journal, node: shared?.nodeID ?? "", configuration: configuration, logger: logger)
        // Venues live beside the SQLite journal like the webhooks, or in a single Redis shared by every node (a
        // relayed game's id has no partition in it, so several partitions do not relay yet).
        var venues: VenueDirectory?
        do {
            if journal is SQLiteJournal {
                venues = try VenueDirectory(directory: configuration.dataDirectory, clock: clock)
            } else if let partitions = Self.redisPartitions(of: journal), partitions.count == 1 {
                venues = try VenueDirectory(store: RedisVenueStore(journal: partitions[0]), clock: clock)
            }
        } catch {
            throw .journal(directory: configuration.dataDirectory, error)
        }
        markerPath = (configuration.dataDirectory as NSString).appendingPathComponent(Self.cleanShutdownMarker)
        let marked = unlink(markerPath) == 0
        let loops: EventLoopGroup
        do {
            loops = try EventLoopGroup(threadCount: max(configuration.threads ?? EventLoopGroup.coreCount, 1))
        } catch {
            throw .cannotListen(host: configuration.host, port: configuration.port, error)
        }
        group = loops
        let contents: JournalContents
        do {
            // The feed's end is marked before the games are read, so a write made meanwhile is both loaded and
            // delivered (the owner skips what it holds), never neither.
            tailer = try Self.redisPartitions(of: journal).map { partitions throws(ApplicationError) in
                try SharedFeedTail(
                    partitions: partitions, partitioned: journal as? PartitionedRedisJournal, loop: loops.loops[0],
                    scheduler: loops.loops[0].makeScheduler())
            }
        } catch {
            loops.shutdown()
            throw error
        }
        let storedCourts: [StoredCourt]
        // Courts live in partition 0: when it did not answer at start they are loaded once it does.
        let courtsWaiting = (journal as? PartitionedRedisJournal)?.waiting.contains(0) ?? false
        do {
            contents = try journal.loadContents()
        } catch {
            tailer?.stop()
            loops.shutdown()
            throw .journal(directory: configuration.dataDirectory, error)
        }
        do {
            // After the feed's end is marked, as the games: a court changed meanwhile is loaded and delivered too.
            storedCourts = courtsWaiting ? [] : try courtStore.loadStoredCourts()
        } catch {
            tailer?.stop()
            loops.shutdown()
            throw .courts(directory: configuration.dataDirectory, error)
        }
        let relayedCourts = courtsWaiting ? [] : Self.loadRelayedCourts(courtStore, logger: logger)
        let stored = contents.games
        // Nothing stored: nothing was published either (a first start), so there are no numbers to skip. On a shared
        // journal nothing is published before it is stored, so every start is clean.
        let cleanStart = marked || stored.isEmpty || shared != nil
        let metrics = ServerMetrics()
        metrics.relayGames.use(clock: clock)
        self.metrics = metrics
        let lobby = Self.startLobby(on: loops, metrics: metrics)
        let courtDirectory = CourtDirectory(waiting: courtsWaiting)
        // A venue node's ids start with its venue's id, and its journal tells the uplink what it stored.
        let venueID = configuration.upstreamToken.flatMap(RelayVenue.id(fromToken:))
        let uplinkBox = VenueUplink.Handle()
        let courts = Self.startCourts(
            on: loops, store: courtStore, restoring: storedCourts + relayedCourts, directory: courtDirectory,
            metrics: metrics,
            idPrefix: venueID.map { $0 + "." } ?? "", clock: clock)
        let tap: RelayTapJournal? =
            venueID == nil || configuration.upstream == nil || !(journal is SQLiteJournal)
            ? nil
            : RelayTapJournal(journal) { write in uplinkBox.bound.withLock { $0 }?.run { $0.stored(write) } }
        let registry = GameRegistry(loops: loops.loops, idPrefix: venueID.map { $0 + "." } ?? "")
        let failures = Mutex<ApplicationCore?>(nil)
        var limits = GameLimits(resumeWindow: configuration.resumeWindow)
        limits.storageRetryInterval = configuration.storageRetryInterval
        let services = GameServices(
            journal: tap ?? journal, shared: shared, metrics: metrics, logger: logger, clock: clock, limits: limits,
            reportSummary: { [venues] summary in
                // A relayed game's lobby row names its venue (docs/relay.md).
                var named = summary
                named.venue = venues?.relaying(summary.id)?.name
                let row = named
                lobby.run { $0.upsert(row) }
            },
            reportFailure: { id, problem in failures.withLock { $0?.gameFailed(id, problem: problem) } },
            reportRecovery: { id in failures.withLock { $0?.gameRecovered(id) } }, group: loops)
        let probe = shared.map { StoreProbe(partitions: Self.redisPartitions(of: journal) ?? [], shared: $0) }
        let core = ApplicationCore(
            configuration: configuration, adminToken: adminToken, registry: registry, lobby: lobby, courts: courts,
            courtDirectory: courtDirectory, services: services, storeProbe: probe,
            webhooks: webhooks, venues: venues,
            socketScheduler: socketScheduler ?? { EventLoopScheduler(context: $0) })
        failures.withLock { $0 = core }
        if venues != nil { core.relayHub.withLock { $0 = RelayHub(core: core, loop: loops.loops[0]) } }
        self.core = core
        if tap != nil, let upstream = configuration.upstream, let token = configuration.upstreamToken,
            let sqlite = journal as? SQLiteJournal
        {
            let status = UplinkStatus()
            core.uplink.withLock { $0 = status }
            let upstreamURL: UpstreamURL
            do throws(UpstreamURLError) {
                upstreamURL = try UpstreamURL(parsing: upstream)
            } catch {
                loops.shutdown()
                throw .upstream(error)
            }
            let tlsContext: TLSContext?
            do {
                // wss://: the public node's chain and host name verified, against --upstream-ca or the system's.
                tlsContext =
                    upstreamURL.secure ? try TLSContext.client(verify: true, caFile: configuration.upstreamCAFile) : nil
            } catch {
                loops.shutdown()
                throw .tls(error)
            }
            var relaySettings = RelaySettings()
            if let interval = configuration.upstreamPingInterval {
                relaySettings.scaleHealthChecks(toPingEvery: Int64(interval / .milliseconds(1)))
            }
            let settings = relaySettings
            let made = Mutex<Result<Void, JournalError>?>(nil)
            let ready = DispatchSemaphore(value: 0)
            loops.loops[0].execute { context in
                do throws(JournalError) {
                    let uplink = try VenueUplink(
                        upstream: upstreamURL, token: token, tlsContext: tlsContext, settings: settings,
                        journalPath: sqlite.path, games: stored, courts: courtDirectory, clock: clock,
                        logger: logger, context: context, status: status)
                    uplinkBox.bound.withLock { $0 = uplink.bound }
                    courtDirectory.observe { uplinkBox.bound.withLock { $0 }?.run { $0.courtsChanged() } }
                    uplink.start()
                    made.withLock { $0 = .success(()) }
                } catch {
                    made.withLock { $0 = .failure(error) }
                }
                ready.signal()
            }
            ready.wait()
            if case .failure(let error) = made.withLock({ $0 }) {
                loops.shutdown()
                throw .journal(directory: configuration.dataDirectory, error)
            }
        }
        uplink = uplinkBox.bound.withLock { $0 }
        do throws(ApplicationError) {
            for game in contents.quarantined { core.quarantine(game, logger: logger) }
            try Self.restore(stored, into: core, cleanStart: cleanStart, limits: limits, logger: logger)
            ViewerCounter.start(for: core)
            GameArchiver.start(for: core)
            server = try Self.startServer(configuration: configuration, core: core, group: loops)
        } catch {
            tailer?.stop()
            loops.shutdown()
            throw error
        }
        probe?.start(on: loops.loops[0])
        if let tailer, let shared {
            let router = SharedFeedRouter(core: core, journal: shared, scheduler: loops.loops[0].makeScheduler())
            core.relayHub.withLock { $0 }?.router.withLock { $0 = router }
            tailer.start(router: router, games: stored, courts: courtStore, logger: logger)
        }
        url = server.url
        metrics.observeConnections(of: server)
        logger.notice(
            "serving",
            [
                "url": url, "games": "\(stored.count)",
                "start": stored.isEmpty ? "first" : marked ? "clean" : "after a crash",
            ])
    }

    /// The webhooks (docs/webhooks.md): beside the SQLite journal in the data directory, or shared by every node in
    /// the first Redis partition, following the game streams; nil for another journal (tests' in-memory ones).
    private static func startWebhooks(
        journal: any GameJournal, node: String, configuration: ServerConfiguration, logger: Logger
    ) throws(ApplicationError) -> WebhookService? {
        let sqlite = journal as? SQLiteJournal
        let partitions = redisPartitions(of: journal)
        guard sqlite != nil || partitions != nil else { return nil }
        let tls: TLSContext
        do {
            // https receivers: their certificate chain and host name verified (RFC 9110 §4.3.4).
            tls = try TLSContext.client(verify: true, caFile: configuration.webhookCAFile)
        } catch {
            throw .tls(error)
        }
        do {
            if let sqlite {
                return try WebhookService(
                    directory: configuration.dataDirectory, journalPath: sqlite.path,
                    allowsPrivateAddresses: configuration.webhookAllowPrivate, tls: tls, logger: logger)
            }
            guard let partitions else { return nil }
            return try WebhookService(
                store: RedisWebhookStore(journal: partitions[0]), reader: RedisJournalFollower(partitions: partitions),
                node: node, leaseMs: Int(configuration.webhookLease / .milliseconds(1)),
                allowsPrivateAddresses: configuration.webhookAllowPrivate, tls: tls, logger: logger)
        } catch {
            throw .journal(directory: configuration.dataDirectory, error)
        }
    }

    /// One `RedisJournal` per URL, in order, claimed as the game partitions (docs/cluster.md, "Past one Redis").
    private static func openPartitions(_ configuration: ServerConfiguration) throws(ApplicationError)
        -> PartitionedRedisJournal
    {
        var redis = RedisJournal.Configuration()
        redis.client.tlsCAFile = configuration.redisCAFile
        redis.nodeID = configuration.effectiveNodeID
        // With several partitions, one that is down at start waits (its games answer `unavailable` until it
        // answers); a single Redis holds everything, so without it there is nothing to serve.
        redis.startsWhileUnreachable = configuration.redisURLs.count > 1
        var partitions: [RedisJournal] = []
        for url in configuration.redisURLs {
            do {
                partitions.append(try RedisJournal(url: url, configuration: redis))
            } catch {
                for opened in partitions { opened.close() }
                throw .redisJournal(url: url.description, error)
            }
        }
        do {
            return try PartitionedRedisJournal(partitions: partitions)
        } catch {
            for opened in partitions { opened.close() }
            throw .redisPartitions(error)
        }
    }

    /// The courts relayed from venues that the nodes of a cluster share (docs/relay.md, "Courts"). They are the
    /// venues' to send again, so one stored in a form this node cannot show, or a store that cannot give them back,
    /// is logged and the node starts without it.
    static func loadRelayedCourts(_ store: any CourtStore, logger: Logger) -> [StoredCourt] {
        do {
            let (courts, refused) = try store.loadRelayedCourts()
            for error in refused {
                logger.warning("relayed court not loaded: shown again when its venue relays it", ["error": "\(error)"])
            }
            return courts
        } catch {
            logger.warning(
                "relayed courts not loaded: shown again when their venues relay them", ["error": "\(error)"])
            return []
        }
    }

    /// The Redis servers under `journal`, one per partition (one for a plain `RedisJournal`); nil for another journal.
    static func redisPartitions(of journal: any GameJournal) -> [RedisJournal]? {
        if let partitioned = journal as? PartitionedRedisJournal { return partitioned.partitions }
        return (journal as? RedisJournal).map { [$0] }
    }

    /// Unix milliseconds from the system clock.
    public static let wallClock: @Sendable () -> Timestamp = {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    // MARK: Public API

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully. Call from the main thread.
    public func runUntilSignal() {
        do {
            let watcher = try SignalWakeup.shutdown()
            watcher.wait()
        } catch {
            core.logger.error("cannot watch signals; serving until killed", ["error": "\(error)"])
            while true { sleep(3600) }
        }
        shutdown()
    }

    /// Stops accepting, closes sockets (1001), stores every pending write, and stops the loops. Blocks; not from a
    /// loop. Later calls do nothing.
    public func shutdown() {
        let first = isShutDown.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        core.beginStopping()
        tailer?.stop()
        core.storeProbe?.stop()
        server.shutdown()
        core.webhooks?.shutdown()
        core.venues?.close()
        if let uplink {
            let done = DispatchSemaphore(value: 0)
            uplink.run { uplink in
                uplink.stop()
                done.signal()
            }
            done.wait()
        }
        stopOwners()
        journal.close()
        courtStore.close()
        if !core.anyGameFailed {
            // Every published number is stored: the next start may reuse the numbering exactly (docs/server.md).
            let descriptor = open(markerPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            if descriptor >= 0 { Foundation.close(descriptor) }
        }
        group.shutdown()
        core.logger.notice("stopped", [:])
    }

    /// Creates a game from the `POST /api/games` body; `completion` runs once the game is durable and served.
    public func createGame(
        _ request: GameCreationRequest,
        completion: @escaping @Sendable (Result<CreatedGame, GameCreationError>) -> Void
    ) {
        core.createGame(request, completion: completion)
    }

    /// Applies a command (the wire JSON) to a game, the same path as `POST /api/games/{id}/commands`;
    /// `completion` gets the ack or error JSON once the command's event is durable.
    public func submit(command: [UInt8], toGame id: GameID, completion: @escaping @Sendable ([UInt8]) -> Void) {
        core.submit(command: command, toGame: id, from: nil) { reply in completion(reply.bytes) }
    }

    // MARK: Start-up and shutdown

    /// The courts, on the lobby's loop (both are small documents changed by people, not by games).
    private static func startCourts(
        on group: EventLoopGroup, store: any CourtStore, restoring courts: [StoredCourt], directory: CourtDirectory,
        metrics: ServerMetrics, idPrefix: String, clock: @escaping @Sendable () -> Timestamp
    ) -> LoopBound<CourtsOwner> {
        let loop = group.loops[0]
        let made = Mutex<LoopBound<CourtsOwner>?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.execute { context in
            let owner = CourtsOwner(
                context: context, store: store, restoring: courts, directory: directory, group: group,
                metrics: metrics, idPrefix: idPrefix, clock: clock)
            made.withLock { $0 = owner.bound }
            done.signal()
        }
        done.wait()
        guard let courts = made.withLock({ $0 }) else { preconditionFailure("Invalid state: courts not made") }
        return courts
    }

    private static func startLobby(on group: EventLoopGroup, metrics: ServerMetrics) -> LoopBound<LobbyOwner> {
        let loop = group.loops[0]
        let made = Mutex<LoopBound<LobbyOwner>?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.execute { context in
            made.withLock { $0 = LoopBound(LobbyOwner(context: context, group: group, metrics: metrics), loop: loop) }
            done.signal()
        }
        done.wait()
        guard let lobby = made.withLock({ $0 }) else { preconditionFailure("Invalid state: lobby not made") }
        return lobby
    }

    /// Rebuilds every stored game on its loop. After a crash each game's numbering moves up by the restart margin
    /// (stored before serving), so no number a spectator may have seen is reused for different content.
    private static func restore(
        _ stored: [JournaledGame], into core: ApplicationCore, cleanStart: Bool, limits: GameLimits, logger: Logger
    ) throws(ApplicationError) {
        let pending = DispatchGroup()
        let writeFailure = Mutex<JournalError?>(nil)
        for journaled in stored {
            // One game that does not replay must not keep the others from being served.
            guard let game = core.replayOrQuarantine(journaled) else { continue }
            // A relayed game's numbers are the venue's: it publishes only what was stored, so it skips none.
            let relayed = journaled.record.metadata[GameRecord.relayedFromKey] != nil
            var seq = journaled.lastPresentationSequence + (cleanStart || relayed ? 0 : limits.restartMargin)
            // The last number was published without an event (a refused command refreshed a running clock's `time`;
            // only the number is recorded): the rebuilt document, read at the last event's instant, is another
            // document, so it takes the next number; one `seq` never names two documents (docs/server.md).
            let lastEventNumber = journaled.events.last?.presentationSequence ?? 0
            if cleanStart, !relayed, core.services.shared == nil, journaled.lastPresentationSequence > lastEventNumber {
                seq += 1
            }
            if !cleanStart, !relayed {
                pending.enter()
                core.services.journal.recordPresentationSequence(seq, forGame: journaled.id) { result in
                    if case .failure(let error) = result { writeFailure.withLock { $0 = error } }
                    pending.leave()
                }
            }
            core.installRestored(journaled, game: game, seq: seq)
        }
        pending.wait()
        if let error = writeFailure.withLock({ $0 }) {
            throw .journal(directory: core.configuration.dataDirectory, error)
        }
        // Wait until every owner is installed, so the first request finds its game.
        let loopsDone = DispatchGroup()
        for handle in core.registry.allHandles {
            loopsDone.enter()
            handle.loop.execute { _ in loopsDone.leave() }
        }
        loopsDone.wait()
        if !stored.isEmpty { logger.info("games restored", ["count": "\(stored.count)", "clean": "\(cleanStart)"]) }
    }

    /// The instant a restored view model starts from: the last event's while the clock runs (the `time` label is
    /// read then), else the creation time (the first reading of a clock that never ran; a clock that stopped shows
    /// the instant it stopped, which the model keeps, `GameClock.stoppedAt`).
    static func restoredInstant(of journaled: JournaledGame, game: Game) -> Timestamp {
        guard game.isClockRunning, let last = journaled.events.last else { return journaled.record.createdAt }
        return last.event.at
    }

    private static func startServer(configuration: ServerConfiguration, core: ApplicationCore, group: EventLoopGroup)
        throws(ApplicationError) -> HTTPServer
    {
        var tls: TLSContext?
        if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
            do {
                tls = try TLSContext(
                    configuration: TLSConfiguration(certificateChainPath: certificate, privateKeyPath: key))
            } catch {
                throw .tls(error)
            }
        }
        // permessage-deflate on: a scoreboard patch compresses to a third with the shared context (docs/deflate.md).
        // Clients are asked for client_no_context_takeover (RFC 7692 §7.1.1.2): they send little, so the server's
        // inflater is emptied after every message instead of keeping a window per connection.
        var webSocket = WebSocketConnectionStateMachine.Configuration.server
        webSocket.idlePingInterval = configuration.webSocketIdlePingInterval
        let serverConfiguration = HTTPServer.Configuration(
            host: configuration.host, port: configuration.port, threadCount: group.loops.count, tls: tls,
            staticFiles: StaticFileServer(root: configuration.publicDirectory), webSocket: webSocket,
            perMessageDeflate: PerMessageDeflateConfiguration(requestClientNoContextTakeover: true),
            webSocketSendBudgetBytes: configuration.maxQueuedBytesPerConnection,
            writeTimeout: configuration.writeTimeout, connectionCaps: connectionCaps(configuration),
            responseHeaders: SecurityHeaders(configuration).headers(forPath:))
        do {
            let router = CourtsideRouter(core: core, staticFiles: serverConfiguration.staticFiles)
            return try HTTPServer(configuration: serverConfiguration, router: router, group: group)
        } catch {
            throw .cannotListen(host: configuration.host, port: configuration.port, error)
        }
    }

    /// The connection caps: every connection counts per TCP peer, except a trusted proxy's (it carries many
    /// clients, whose WebSockets the router still counts by their forwarded address).
    private static func connectionCaps(_ configuration: ServerConfiguration) -> ConnectionCaps {
        let proxies = configuration.trustedProxies
        return ConnectionCaps(
            maxConnections: configuration.maxConnections ?? ConnectionCaps.defaultMaxConnections,
            maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
            isExemptFromPerAddressCap: { peer in proxies.contains { $0.contains(peer.host) } })
    }

    /// Cancels every owner's timers on its loop and waits, so nothing writes after the journal closes.
    private func stopOwners() {
        let done = DispatchGroup()
        for loop in group.loops {
            done.enter()
            loop.execute { [core] context in
                for owner in OwnerTable.table(in: context, key: core.registry.key).owners.values { owner.stop() }
                done.leave()
            }
        }
        done.wait()
    }
}
