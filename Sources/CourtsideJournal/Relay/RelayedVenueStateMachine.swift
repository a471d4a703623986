import CourtsideModel

/// The public node's end of the relay for one venue (docs/relay.md): it takes each relayed game's entries exactly
/// once and in order (duplicates ignored, a gap refused once and asked again), acknowledges only what its journal
/// stored durably, and shows the venue's link state in the games' documents. Events in, actions out; time is a
/// parameter and the machine knows nothing of sockets.
///
/// It does not check the venue's token (the route does, before `receivedHello`), and it does not store anything
/// itself: `store…` actions go to the public node's journal, whose answers come back as `stored` / `storeFailed`.
public struct RelayedVenueStateMachine: Sendable {
    /// Per game, what the public node holds.
    public struct Copy: Sendable, Hashable {
        /// The highest durably stored `seq` (0 once `open` is stored); nil while `open` is being written.
        public var stored: Int?
        /// The highest `seq` handed to the journal (stored or being written).
        public var accepted: Int
        /// The venue's highest known `seq` (from `hello` and received entries), for the `behind` count.
        public var venueHead: Int
    }

    /// The live connection's data.
    public struct Link: Sendable, Hashable {
        public var connection: RelayConnectionID
        public var lastHeard: Timestamp
        /// Per game, the `seq` a `resend` asked for: later entries are discarded silently until it arrives.
        public var refusedFrom: [GameID: Int]
    }

    public enum State: Sendable, Hashable {
        /// No connection from the venue since `since`.
        case down(since: Timestamp)
        /// A connection is open and `hello` has not arrived; the games still show the link down since `downSince`.
        case awaitingHello(RelayConnectionID, since: Timestamp, downSince: Timestamp)
        case up(Link)
    }

    /// Courts one venue may relay: as many as a server keeps (`CourtsOwner.maxCourts`), so one `courts` message
    /// stays a few hundred kilobytes at most.
    public static let maxCourts = 64

    /// The venue's id: every relayed game and court id starts with it and a dot.
    public let venue: String
    public let settings: RelaySettings
    public private(set) var state: State
    public private(set) var games: [GameID: Copy]

    /// `stored` is what the public journal holds of this venue's games (after a restart, possibly less than it
    /// once acknowledged: the venue resends the rest).
    public init(venue: String, stored: [GameID: Int], now: Timestamp, settings: RelaySettings = RelaySettings()) {
        self.venue = venue
        self.settings = settings
        self.state = .down(since: now)
        self.games = stored.mapValues { Copy(stored: $0, accepted: $0, venueHead: $0) }
    }

    /// Whether `game` may be relayed by this venue: its id starts with the venue's id and a dot.
    public func owns(_ game: GameID) -> Bool {
        owns(id: game.rawValue)
    }

    /// Whether `court` may be relayed by this venue: its id starts with the venue's id and a dot.
    public func ownsCourt(_ court: CourtID) -> Bool {
        owns(id: court.rawValue)
    }

    private func owns(id: String) -> Bool {
        id.hasPrefix(venue + ".") && id.count > venue.count + 1
    }

    /// What the game's document shows about the link now.
    public func linkState(of game: GameID) -> RelayLinkState {
        switch state {
        case .down(let since), .awaitingHello(_, _, let since): return .down(since: since)
        case .up: return .up(behind: behind(game))
        }
    }

    /// The earliest instant at which `tick` has something to do.
    public var nextDeadline: Timestamp? {
        switch state {
        case .down: return nil
        case .awaitingHello(_, let since, _): return since.advanced(byMilliseconds: settings.helloDeadlineMilliseconds)
        case .up(let link): return link.lastHeard.advanced(byMilliseconds: settings.silenceLimitMilliseconds)
        }
    }

    // MARK: Events

    /// The venue opened a connection (its token already checked). A previous one is closed: after a venue
    /// restart or a path change the old connection may be half-open.
    public mutating func connected(_ connection: RelayConnectionID, now: Timestamp) -> [RelayedVenueAction] {
        switch state {
        case .down(let since):
            state = .awaitingHello(connection, since: now, downSince: since)
            return []
        case .awaitingHello(let old, _, let downSince):
            state = .awaitingHello(connection, since: now, downSince: downSince)
            return [.close(old, .replaced)]
        case .up(let link):
            state = .awaitingHello(connection, since: now, downSince: now)
            return [.close(link.connection, .replaced)] + showAll(.down(since: now))
        }
    }

    /// What the public journal holds of the venue's games, read again from a journal other nodes write too (a
    /// cluster on one Redis, where the venue may have relayed through another node since this one last saw it):
    /// each game's `stored` and `accepted` only rise, so nothing this node has handed to the journal is forgotten.
    /// Call it before `receivedHello`, so `welcome` reports it.
    public mutating func learned(stored: [GameID: Int]) {
        for (game, seq) in stored where owns(game) {
            var copy = games[game] ?? Copy(stored: seq, accepted: seq, venueHead: seq)
            copy.stored = max(copy.stored ?? seq, seq)
            copy.accepted = max(copy.accepted, seq)
            copy.venueHead = max(copy.venueHead, seq)
            games[game] = copy
        }
    }

    /// `hello`: the venue's head per game.
    public mutating func receivedHello(
        _ connection: RelayConnectionID, heads: [GameID: Int], now: Timestamp
    ) -> [RelayedVenueAction] {
        guard case .awaitingHello(let current, _, let downSince) = state, current == connection else {
            return reject(connection, .unexpectedMessage("hello"), now: now)
        }
        if let foreign = heads.keys.sorted(by: { $0.rawValue < $1.rawValue }).first(where: { !owns($0) }) {
            state = .down(since: downSince)
            return [.close(connection, .foreignGame(venue: venue, game: foreign))]
        }
        for (game, head) in heads {
            guard var copy = games[game] else { continue }
            copy.venueHead = max(copy.venueHead, head)
            games[game] = copy
        }
        state = .up(Link(connection: connection, lastHeard: now, refusedFrom: [:]))
        let stored = games.compactMapValues(\.stored)
        return [.sendWelcome(connection, stored: stored)] + showAll(nil)
    }

    /// `open`: the game's creation record.
    public mutating func receivedOpen(
        _ connection: RelayConnectionID, game: GameID, record: [UInt8], now: Timestamp
    ) -> [RelayedVenueAction] {
        var link: Link
        switch admit(connection, game: game, message: "open", now: now) {
        case .refused(let actions): return actions
        case .admitted(let admitted): link = admitted
        }
        link.refusedFrom[game] = nil
        state = .up(link)
        guard let copy = games[game] else {
            games[game] = Copy(stored: nil, accepted: 0, venueHead: 0)
            return [.storeOpen(game, record: record)]
        }
        // A duplicate `open` (resent after a cut): repeat the ack if it is stored.
        return copy.stored.map { [.sendAck(game, seq: $0)] } ?? []
    }

    /// `entries`: consecutive entries of one game, in `seq` order.
    public mutating func receivedEntries(
        _ connection: RelayConnectionID, game: GameID, entries: [RelayEntry], now: Timestamp
    ) -> [RelayedVenueAction] {
        var link: Link
        switch admit(connection, game: game, message: "entries", now: now) {
        case .refused(let actions): return actions
        case .admitted(let admitted): link = admitted
        }
        // `seq` 0 is the game's `open`, never an entry: a venue sending one is broken.
        guard entries.allSatisfy({ $0.seq >= 1 }) else {
            return cutCurrent(.unexpectedMessage("entry with seq below 1"), now: now)
        }
        var accepted = games[game]?.accepted ?? -1
        var taken: [RelayEntry] = []
        var actions: [RelayedVenueAction] = []
        var duplicate = false
        for entry in entries {
            if entry.seq <= accepted {
                duplicate = true
                continue
            }
            guard entry.seq == accepted + 1 else {
                if link.refusedFrom[game] != accepted + 1 {
                    link.refusedFrom[game] = accepted + 1
                    actions.append(.sendResend(game, from: accepted + 1))
                }
                break
            }
            taken.append(entry)
            accepted = entry.seq
            link.refusedFrom[game] = nil
        }
        state = .up(link)
        if !taken.isEmpty, var copy = games[game] {
            copy.accepted = accepted
            copy.venueHead = max(copy.venueHead, accepted)
            games[game] = copy
            actions.append(.storeEntries(game, taken))
        } else if duplicate, taken.isEmpty, actions.isEmpty, let stored = games[game]?.stored {
            // Only duplicates: the venue may have lost the ack in a cut, so it hears it again.
            actions.append(.sendAck(game, seq: stored))
        }
        return actions
    }

    /// `snapshot`: the venue's document at `seq`, replacing the copy (the public node is too far behind).
    public mutating func receivedSnapshot(
        _ connection: RelayConnectionID, game: GameID, seq: Int, document: [UInt8], now: Timestamp
    ) -> [RelayedVenueAction] {
        var link: Link
        switch admit(connection, game: game, message: "snapshot", now: now) {
        case .refused(let actions): return actions
        case .admitted(let admitted): link = admitted
        }
        guard var copy = games[game] else {
            var actions: [RelayedVenueAction] = []
            if link.refusedFrom[game] != 0 {
                link.refusedFrom[game] = 0
                actions.append(.sendResend(game, from: 0))
            }
            state = .up(link)
            return actions
        }
        state = .up(link)
        guard seq > copy.accepted else { return copy.stored.map { [.sendAck(game, seq: $0)] } ?? [] }
        link.refusedFrom[game] = nil
        state = .up(link)
        copy.accepted = seq
        copy.venueHead = max(copy.venueHead, seq)
        games[game] = copy
        return [.storeSnapshot(game, seq: seq, document: document)]
    }

    /// `courts`: every court of the venue, whole. Shown in place of what was shown of them when each id is the
    /// venue's (another venue's court, or more than `maxCourts`, cuts the connection: nothing of it is shown).
    public mutating func receivedCourts(
        _ connection: RelayConnectionID, courts: [Court], now: Timestamp
    ) -> [RelayedVenueAction] {
        guard case .up(var link) = state, link.connection == connection else {
            return reject(connection, .unexpectedMessage("courts"), now: now)
        }
        guard courts.count <= Self.maxCourts else {
            return cutCurrent(.tooManyCourts(count: courts.count, limit: Self.maxCourts), now: now)
        }
        if let foreign = courts.first(where: { !ownsCourt($0.id) }) {
            return cutCurrent(.foreignCourt(venue: venue, court: foreign.id), now: now)
        }
        link.lastHeard = now
        state = .up(link)
        return [.showCourts(courts)]
    }

    /// A ping or pong from the venue.
    public mutating func receivedPing(_ connection: RelayConnectionID, now: Timestamp) -> [RelayedVenueAction] {
        guard case .up(var link) = state, link.connection == connection else { return [] }
        link.lastHeard = now
        state = .up(link)
        return []
    }

    /// The public journal durably stored `game` through `seq`.
    public mutating func stored(_ game: GameID, seq: Int, now: Timestamp) -> [RelayedVenueAction] {
        guard var copy = games[game] else { return [] }
        copy.stored = max(copy.stored ?? seq, seq)
        games[game] = copy
        guard case .up = state else { return [] }
        return [.sendAck(game, seq: copy.stored ?? seq), .showLink(game, .up(behind: behind(game)))]
    }

    /// The public journal failed to store what was handed to it: forget it and cut the connection, so the venue
    /// resends from its last ack.
    public mutating func storeFailed(_ game: GameID, reason: String, now: Timestamp) -> [RelayedVenueAction] {
        guard let copy = games[game] else { return [] }
        if let stored = copy.stored {
            games[game]?.accepted = stored
        } else {
            games[game] = nil
        }
        return cutCurrent(.journalWriteFailed(game, reason: reason), now: now)
    }

    /// The connection ended (closed, reset, or failed its write deadline).
    public mutating func disconnected(_ connection: RelayConnectionID, now: Timestamp) -> [RelayedVenueAction] {
        switch state {
        case .down: return []
        case .awaitingHello(let current, _, let downSince):
            guard current == connection else { return [] }
            state = .down(since: downSince)
            return []
        case .up(let link):
            guard link.connection == connection else { return [] }
            state = .down(since: now)
            return showAll(.down(since: now))
        }
    }

    /// Timers: the `hello` deadline and silence.
    public mutating func tick(now: Timestamp) -> [RelayedVenueAction] {
        switch state {
        case .down:
            return []
        case .awaitingHello(let connection, let since, let downSince):
            let waited = now.milliseconds(since: since)
            guard waited >= settings.helloDeadlineMilliseconds else { return [] }
            state = .down(since: downSince)
            return [.close(connection, .helloTimedOut(waitedMilliseconds: waited))]
        case .up(let link):
            guard now.milliseconds(since: link.lastHeard) >= settings.silenceLimitMilliseconds else { return [] }
            return cutCurrent(.silence(lastHeard: link.lastHeard, now: now), now: link.lastHeard)
        }
    }

    // MARK: Helpers

    private enum Admission {
        case admitted(Link)
        case refused([RelayedVenueAction])
    }

    /// A game's message on `connection`: admitted with the link (heard now) when it is the current, greeted
    /// connection and the game is the venue's; else the actions that refuse it.
    private mutating func admit(
        _ connection: RelayConnectionID, game: GameID, message: String, now: Timestamp
    ) -> Admission {
        guard case .up(var link) = state, link.connection == connection else {
            return .refused(reject(connection, .unexpectedMessage(message), now: now))
        }
        guard owns(game) else { return .refused(cutCurrent(.foreignGame(venue: venue, game: game), now: now)) }
        link.lastHeard = now
        return .admitted(link)
    }

    private func behind(_ game: GameID) -> Int {
        guard let copy = games[game] else { return 0 }
        return max(0, copy.venueHead - (copy.stored ?? 0))
    }

    /// Every known game's link state: `down` when given, else each game's `up(behind:)`.
    private func showAll(_ down: RelayLinkState?) -> [RelayedVenueAction] {
        games.keys.sorted(by: { $0.rawValue < $1.rawValue }).map { .showLink($0, down ?? .up(behind: behind($0))) }
    }

    /// Closes the current connection and shows the link down since `now`.
    private mutating func cutCurrent(_ error: RelayError, now: Timestamp) -> [RelayedVenueAction] {
        switch state {
        case .down: return []
        case .awaitingHello(let connection, _, let downSince):
            state = .down(since: downSince)
            return [.close(connection, error)]
        case .up(let link):
            state = .down(since: now)
            return [.close(link.connection, error)] + showAll(.down(since: now))
        }
    }

    /// A message on a connection that is not the current one, or out of order on the current one.
    private mutating func reject(
        _ connection: RelayConnectionID, _ error: RelayError, now: Timestamp
    ) -> [RelayedVenueAction] {
        switch state {
        case .awaitingHello(let current, _, _) where current == connection: return cutCurrent(error, now: now)
        case .up(let link) where link.connection == connection: return cutCurrent(error, now: now)
        default: return [.close(connection, error)]
        }
    }
}
