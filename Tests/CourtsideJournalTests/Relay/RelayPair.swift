import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport

/// A venue and a public node joined by an in-memory connection that a test cuts at will: the two relay machines,
/// a scripted venue journal, the public node's journal (which records every store, so a doubled or skipped entry
/// is caught where it happens) and the messages in flight in each direction. It performs the machines' actions as
/// the server will, but a step at a time, so a test chooses exactly where a cut falls.
struct RelayPair {
    enum ToPublic: Hashable {
        case hello(heads: [GameID: Int])
        case open(GameID)
        case entries(GameID, [RelayEntry])
        case snapshot(GameID, seq: Int)
        case courts([Court])
        case ping
    }

    enum ToVenue: Hashable {
        case welcome(stored: [GameID: Int])
        case ack(GameID, seq: Int)
        case resend(GameID, from: Int)
        case pong
    }

    /// A store handed to the public journal, not yet durable.
    enum PendingWrite: Hashable {
        case open(GameID)
        case entries(GameID, [RelayEntry])
        case snapshot(GameID, seq: Int)
    }

    var venue: VenueUplinkStateMachine
    var publicNode: RelayedVenueStateMachine
    var now = Timestamp(milliseconds: 1_000)
    var random: SeededGenerator
    /// Every entry the venue's journal holds, per game, in `seq` order (index `seq - 1`).
    var venueJournal: [GameID: [RelayEntry]] = [:]
    /// What the public journal stored, per game, in the order it stored it.
    var publicJournal: [GameID: [RelayEntry]] = [:]
    /// Snapshots the public journal stored: the game and the `seq` it starts from.
    var publicSnapshots: [GameID: Int] = [:]
    var toPublic: [ToPublic] = []
    var toVenue: [ToVenue] = []
    var pendingWrites: [PendingWrite] = []
    /// The open connection's id, or nil.
    var connection: RelayConnectionID?
    /// The venue asked for a connection that is not established yet.
    var connectRequested = false
    var nextConnection: UInt64 = 1
    var reports: [RelayError] = []
    var closes: [RelayError] = []
    var shownLink: [GameID: RelayLinkState] = [:]
    /// The venue's courts now (what `sendCourts` reads when it sends).
    var venueCourts: [Court] = []
    /// The venue's courts as the public node shows them (`showCourts`: each added or replaced).
    var shownCourts: [CourtID: Court] = [:]
    /// Stores that broke exactly-once-in-order (a `seq` that is not the public journal's next one).
    var violations: [String] = []

    init(settings: RelaySettings = RelaySettings(), seed: UInt64 = 1, venue: String = "vhall2") {
        self.venue = VenueUplinkStateMachine(settings: settings)
        self.publicNode = RelayedVenueStateMachine(venue: venue, stored: [:], now: now, settings: settings)
        self.random = SeededGenerator(seed: seed)
    }

    static func entry(_ game: GameID, _ seq: Int) -> RelayEntry {
        RelayEntry(
            seq: seq, event: Array("{\"e\":\"\(game)#\(seq)\"}".utf8), presentationSequence: seq)
    }

    // MARK: The venue's side

    mutating func create(_ game: GameID) {
        venueJournal[game] = []
        performVenue(venue.created(game, now: now))
    }

    mutating func append(_ game: GameID) {
        let seq = (venueJournal[game]?.count ?? 0) + 1
        venueJournal[game, default: []].append(Self.entry(game, seq))
        performVenue(venue.appended(game, seq: seq, now: now))
    }

    mutating func start() {
        performVenue(venue.start(now: now))
    }

    /// A court of the venue was created or changed (`court` replaces the venue's court with its id).
    mutating func changeCourt(_ court: Court) {
        if let index = venueCourts.firstIndex(where: { $0.id == court.id }) {
            venueCourts[index] = court
        } else {
            venueCourts.append(court)
        }
        performVenue(venue.courtsChanged())
    }

    /// The transport the venue asked for opens (TLS and WebSocket done).
    mutating func establish() {
        guard connectRequested else { return }
        connectRequested = false
        let id = RelayConnectionID(nextConnection)
        nextConnection += 1
        connection = id
        performPublic(publicNode.connected(id, now: now))
        performVenue(venue.connected(now: now))
    }

    /// Cuts the connection: whatever is in flight in either direction is lost, and each side learns it.
    mutating func cut() {
        toPublic = []
        toVenue = []
        if connectRequested {
            connectRequested = false
            performVenue(venue.connectionLost(now: now, using: &random))
            return
        }
        guard let id = connection else { return }
        connection = nil
        performPublic(publicNode.disconnected(id, now: now))
        performVenue(venue.connectionLost(now: now, using: &random))
    }

    mutating func advance(milliseconds: Int64) {
        now = now.advanced(byMilliseconds: milliseconds)
        performVenue(venue.tick(now: now, using: &random))
        performPublic(publicNode.tick(now: now))
    }

    // MARK: Delivery

    /// Delivers the oldest message in flight to the public node; false when none.
    @discardableResult
    mutating func deliverToPublic() -> Bool {
        guard let id = connection, !toPublic.isEmpty else { return false }
        let message = toPublic.removeFirst()
        switch message {
        case .hello(let heads): performPublic(publicNode.receivedHello(id, heads: heads, now: now))
        case .open(let game):
            performPublic(publicNode.receivedOpen(id, game: game, record: Array("\(game)".utf8), now: now))
        case .entries(let game, let entries):
            performPublic(publicNode.receivedEntries(id, game: game, entries: entries, now: now))
        case .snapshot(let game, let seq):
            performPublic(
                publicNode.receivedSnapshot(id, game: game, seq: seq, document: Array("doc\(seq)".utf8), now: now))
        case .courts(let courts): performPublic(publicNode.receivedCourts(id, courts: courts, now: now))
        case .ping:
            performPublic(publicNode.receivedPing(id, now: now))
            toVenue.append(.pong)
        }
        return true
    }

    /// Delivers the oldest message in flight to the venue; false when none.
    @discardableResult
    mutating func deliverToVenue() -> Bool {
        guard connection != nil, !toVenue.isEmpty else { return false }
        switch toVenue.removeFirst() {
        case .welcome(let stored): performVenue(venue.receivedWelcome(stored: stored, now: now, using: &random))
        case .ack(let game, let seq): performVenue(venue.receivedAck(game, seq: seq, now: now, using: &random))
        case .resend(let game, let from):
            performVenue(venue.receivedResend(game, from: from, now: now, using: &random))
        case .pong: performVenue(venue.receivedPong(now: now))
        }
        return true
    }

    /// The public journal makes its oldest pending write durable; false when none.
    @discardableResult
    mutating func completeWrite() -> Bool {
        guard !pendingWrites.isEmpty else { return false }
        switch pendingWrites.removeFirst() {
        case .open(let game):
            if publicJournal[game] != nil { violations.append("\(game) opened twice") }
            publicJournal[game] = []
            performPublic(publicNode.stored(game, seq: 0, now: now))
        case .entries(let game, let entries):
            for entry in entries {
                let next = (publicSnapshots[game] ?? 0) + (publicJournal[game]?.count ?? 0) + 1
                if entry.seq != next { violations.append("\(game): stored \(entry.seq), expected \(next)") }
                publicJournal[game, default: []].append(entry)
            }
            performPublic(publicNode.stored(game, seq: entries.last?.seq ?? 0, now: now))
        case .snapshot(let game, let seq):
            publicSnapshots[game] = seq
            publicJournal[game] = []
            performPublic(publicNode.stored(game, seq: seq, now: now))
        }
        return true
    }

    /// The public journal fails its oldest pending write; the writes queued behind it for the same game fail with
    /// it (a journal writes a game's entries in order), so none is stored out of order.
    mutating func failWrite() {
        guard let failed = pendingWrites.first else { return }
        let game = Self.game(of: failed)
        pendingWrites.removeAll { Self.game(of: $0) == game }
        performPublic(publicNode.storeFailed(game, reason: "injected", now: now))
    }

    /// The public node crashes and restarts (`kill -9`): its pending writes are lost, its connection is cut, and
    /// a new machine starts from what its journal durably holds.
    mutating func restartPublic() {
        pendingWrites = []
        cut()
        var stored: [GameID: Int] = [:]
        for (game, entries) in publicJournal {
            stored[game] = (publicSnapshots[game] ?? 0) + entries.count
        }
        publicNode = RelayedVenueStateMachine(
            venue: publicNode.venue, stored: stored, now: now, settings: publicNode.settings)
    }

    /// The venue crashes and restarts: its connection is cut, and a new machine starts from its journal's heads,
    /// knowing nothing of past acks.
    mutating func restartVenue() {
        cut()
        venue = VenueUplinkStateMachine(heads: venueJournal.mapValues(\.count), settings: venue.settings)
        start()
    }

    private static func game(of write: PendingWrite) -> GameID {
        switch write {
        case .open(let game), .entries(let game, _), .snapshot(let game, _): return game
        }
    }

    /// Delivers and stores everything until nothing moves (bounded).
    mutating func settle() {
        for _ in 0..<10_000 {
            if connectRequested {
                establish()
                continue
            }
            if !(deliverToPublic() || completeWrite() || deliverToVenue()) { return }
        }
        violations.append("did not settle")
    }

    // MARK: Performing actions

    mutating func performVenue(_ actions: [VenueUplinkAction]) {
        for action in actions {
            switch action {
            case .connect: connectRequested = true
            case .sendHello(let heads): toPublic.append(.hello(heads: heads))
            case .sendOpen(let game): toPublic.append(.open(game))
            case .sendEntries(let game, let seqs):
                toPublic.append(.entries(game, seqs.map { venueJournal[game]![$0 - 1] }))
            case .sendSnapshot(let game, let seq): toPublic.append(.snapshot(game, seq: seq))
            case .sendCourts: toPublic.append(.courts(venueCourts))
            case .sendPing: toPublic.append(.ping)
            case .close(let error):
                closes.append(error)
                dropTransport()
            case .report(let error): reports.append(error)
            }
        }
    }

    mutating func performPublic(_ actions: [RelayedVenueAction]) {
        for action in actions {
            switch action {
            case .sendWelcome(let id, let stored):
                if id == connection { toVenue.append(.welcome(stored: stored)) }
            case .sendAck(let game, let seq): if connection != nil { toVenue.append(.ack(game, seq: seq)) }
            case .sendResend(let game, let from): if connection != nil { toVenue.append(.resend(game, from: from)) }
            case .storeOpen(let game, _): pendingWrites.append(.open(game))
            case .storeEntries(let game, let entries): pendingWrites.append(.entries(game, entries))
            case .storeSnapshot(let game, let seq, _): pendingWrites.append(.snapshot(game, seq: seq))
            case .showLink(let game, let state): shownLink[game] = state
            case .showCourts(let courts): for court in courts { shownCourts[court.id] = court }
            case .close(let id, let error):
                closes.append(error)
                if id == connection {
                    connection = nil
                    toPublic = []
                    toVenue = []
                    performVenue(venue.connectionLost(now: now, using: &random))
                }
            }
        }
    }

    /// The venue closed its end: the public node sees the connection end.
    private mutating func dropTransport() {
        toPublic = []
        toVenue = []
        connectRequested = false
        guard let id = connection else { return }
        connection = nil
        performPublic(publicNode.disconnected(id, now: now))
    }
}
