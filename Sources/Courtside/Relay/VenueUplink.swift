import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRandom
import CourtsideTLS
import Synchronization

/// The venue node's shell of the relay (docs/relay.md, "Wiring"): `VenueUplinkStateMachine` fed by the journal (each
/// game created and each event stored, through `RelayTapJournal`), by `UplinkSocket` (the connection to the public
/// node's `/api/relay`) and by its timers (backoff with jitter, the hello deadline, pings), and its actions
/// performed: entries read again from the venue's own journal file when they are sent, so nothing waits in memory
/// while the link is down.
///
/// Loop-confined (on the uplink's loop), reached through `bound`.
final class VenueUplink {
    let venue: String
    private let token: String
    private let host: String
    private let port: Int
    private let path: String
    /// For `wss://`: the client context and the name its certificate must carry.
    private let tls: UplinkSocket.TLS?
    private let scheduler: any LoopScheduler
    private let context: LoopContext
    private let reader: SQLiteJournalReader
    /// The node's courts as published: the venue's own are relayed whole on each welcome and change.
    private let courts: CourtDirectory
    private let clock: @Sendable () -> Timestamp
    private let logger: Logger
    private var machine: VenueUplinkStateMachine
    /// The creation record of every relayed game, for `open` (a few hundred bytes each).
    private var records: [GameID: GameRecord]
    private var socket: UplinkSocket?
    private var timer: TimerID?
    private var random = SplitMix64(seed: UInt64.random(in: 1...UInt64.max))
    private let boot = SecretToken.generate()
    /// Whether the link is up, for `/healthz` (read on any thread).
    let status: UplinkStatus

    /// - Parameters:
    ///   - upstream: the public node's relay endpoint (`--upstream`).
    ///   - tlsContext: the client context for `wss://` (verifying, with the system's store or `--upstream-ca`).
    ///   - settings: the relay's timers (`--upstream-ping` scales the health checks).
    init(
        upstream: UpstreamURL, token: String, tlsContext: TLSContext?, settings: RelaySettings = RelaySettings(),
        journalPath: String, games: [JournaledGame], courts: CourtDirectory, clock: @escaping @Sendable () -> Timestamp,
        logger: Logger, context: LoopContext, status: UplinkStatus
    ) throws(JournalError) {
        venue = RelayVenue.id(fromToken: token) ?? ""
        self.token = token
        path = upstream.path
        host = upstream.authority
        hostName = upstream.host
        port = upstream.port
        // Never plaintext for a wss:// URL: a missing context is the caller's bug, not a fallback.
        precondition(!upstream.secure || tlsContext != nil, "a wss:// upstream needs a TLS context")
        tls =
            upstream.secure ? tlsContext.map { UplinkSocket.TLS(context: $0, serverName: upstream.host) } : nil
        reader = try SQLiteJournalReader(path: journalPath)
        self.courts = courts
        self.clock = clock
        self.logger = logger
        self.context = context
        self.scheduler = EventLoopScheduler(context: context)
        self.status = status
        let prefix = venue + "."
        let relayed = games.filter { $0.id.rawValue.hasPrefix(prefix) }
        records = Dictionary(uniqueKeysWithValues: relayed.map { ($0.id, $0.record) })
        // No snapshots yet: the public node takes entries from its `stored + 1` however far behind.
        var settings = settings
        settings.snapshotBeyond = 1_000_000_000
        machine = VenueUplinkStateMachine(
            heads: Dictionary(uniqueKeysWithValues: relayed.map { ($0.id, $0.lastEventSequence) }),
            hasCourts: courts.courts.contains { $0.id.rawValue.hasPrefix(prefix) }, settings: settings)
    }

    private let hostName: String

    var bound: LoopBound<VenueUplink> { LoopBound(self, loop: context.loop) }

    func start() {
        perform(machine.start(now: clock()))
    }

    func stop() {
        if let timer { scheduler.cancel(timer) }
        timer = nil
        socket?.close()
        socket = nil
        reader.close()
    }

    // MARK: The journal

    /// A write the venue's journal stored.
    func stored(_ write: JournalWrite) {
        switch write {
        case .createGame(let record):
            guard record.id.rawValue.hasPrefix(venue + ".") else { return }
            records[record.id] = record
            perform(machine.created(record.id, now: clock()))
        case .appendEvents(let events, let game):
            guard records[game] != nil else { return }
            for event in events { perform(machine.appended(game, seq: event.event.sequence, now: clock())) }
        case .archiveGame, .recordPresentationSequence:
            break
        }
    }

    /// A court of the node was created or changed (`CourtDirectory` published it).
    func courtsChanged() {
        perform(machine.courtsChanged())
    }

    // MARK: The socket

    func socketOpened(_ socket: UplinkSocket) {
        guard socket === self.socket else { return }
        perform(machine.connected(now: clock()))
    }

    func socketReceived(_ socket: UplinkSocket, _ frame: RelayWire.Frame) {
        guard socket === self.socket else { return }
        let now = clock()
        let message: RelayMessage
        do throws(RelayWireError) {
            message = try RelayWire.decode(frame)
        } catch {
            return lose(socket, reason: "bad relay message: \(error)")
        }
        switch message {
        case .welcome(let stored):
            perform(machine.receivedWelcome(stored: stored, now: now, using: &random))
            if machine.isLive { status.setUp() }
        case .ack(let game, let seq): perform(machine.receivedAck(game, seq: seq, now: now, using: &random))
        case .resend(let game, let from):
            perform(machine.receivedResend(game, from: from, now: now, using: &random))
        case .hello, .open, .entries, .snapshot, .courts:
            lose(socket, reason: "unexpected message from the public node")
        }
    }

    func socketHeard(_ socket: UplinkSocket) {
        guard socket === self.socket else { return }
        perform(machine.receivedPong(now: clock()))
    }

    func socketClosed(_ socket: UplinkSocket, reason: String) {
        guard socket === self.socket else { return }
        lose(socket, reason: reason)
    }

    private func lose(_ socket: UplinkSocket, reason: String) {
        socket.close()
        self.socket = nil
        status.setDown(because: reason)
        logger.warning("uplink lost", ["reason": reason])
        perform(machine.connectionLost(now: clock(), using: &random))
    }

    // MARK: Actions

    private func perform(_ actions: [VenueUplinkAction]) {
        for action in actions { perform(action) }
        armTimer()
    }

    private func perform(_ action: VenueUplinkAction) {
        switch action {
        case .connect:
            let socket = UplinkSocket(uplink: self, host: host, path: path, tls: tls)
            self.socket = socket
            do throws(NetError) {
                try socket.start(try SocketAddress.resolve(host: hostName, port: port), context: context)
            } catch {
                lose(socket, reason: "\(error)")
            }
        case .sendHello(let heads):
            socket?.send(RelayWire.encode(.hello(venue: venue, token: token, boot: boot, heads: heads)))
        case .sendOpen(let game):
            guard let record = records[game], let bytes = try? RelayedGameRecord.encode(record) else { return }
            socket?.send(RelayWire.encode(.open(game, record: bytes)))
        case .sendEntries(let game, let seqs):
            do throws(JournalError) {
                let rows = try reader.events(ofGame: game.rawValue, after: seqs.lowerBound - 1, limit: seqs.count)
                let entries = rows.map {
                    RelayEntry(
                        seq: $0.sequence, event: Array($0.json.utf8), presentationSequence: $0.presentationSequence)
                }
                guard entries.map(\.seq) == Array(seqs) else {
                    logger.error("uplink: the journal does not hold the entries to send", ["game": game.rawValue])
                    return
                }
                socket?.send(RelayWire.encode(.entries(game, entries)))
            } catch {
                logger.error("uplink: the journal could not be read", ["error": "\(error)"])
            }
        case .sendSnapshot(let game, _):
            logger.error("uplink: snapshots are not sent yet", ["game": game.rawValue])
        case .sendCourts:
            // Only the venue's own courts (a court made before the node became a venue stays local).
            let own = courts.courts.filter { $0.id.rawValue.hasPrefix(venue + ".") }
            socket?.send(RelayWire.encode(.courts(own)))
        case .sendPing:
            socket?.sendPing()
        case .close(let error):
            logger.warning("uplink cut", ["reason": "\(error)"])
            socket?.close()
            socket = nil
            status.setDown(because: "\(error)")
        case .report(let error):
            logger.warning("uplink", ["report": "\(error)"])
        }
    }

    private func armTimer() {
        if let timer { scheduler.cancel(timer) }
        timer = nil
        guard let deadline = machine.nextDeadline else { return }
        let delay = max(0, deadline.milliseconds(since: clock()))
        timer = scheduler.schedule(after: .milliseconds(delay)) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.perform(self.machine.tick(now: self.clock(), using: &self.random))
        }
    }
}

@available(*, unavailable)
extension VenueUplink: Sendable {}

extension VenueUplink {
    /// Where the journal's tap finds the uplink once it is made on its loop (nil before).
    final class Handle: Sendable {
        let bound = Mutex<LoopBound<VenueUplink>?>(nil)
    }
}
