import CourtsideModel

/// The venue's end of the relay (docs/relay.md): one outbound connection to the public node that carries every
/// game's journal entries exactly once and in order, resumes from the public node's `welcome` after a cut, and
/// reconnects with jittered backoff. Events in, actions out; time and randomness are parameters, and the machine
/// knows nothing of sockets or of the entries' bytes.
///
/// It does not check the public node's certificate or the token (the connection does), and it does not decide how
/// much the venue's journal keeps (everything, bounded by its disk).
public struct VenueUplinkStateMachine: Sendable {
    /// Per game, this connection's progress.
    public struct Progress: Sendable, Hashable {
        /// The highest `seq` the public node has durably stored; nil while it does not know the game (0 once
        /// `open` is stored).
        public var acked: Int?
        /// The highest `seq` sent on this connection (0 for `open`); nil before anything was sent.
        public var sent: Int?
        /// When the oldest unacknowledged message was sent, for the write deadline.
        public var unackedSince: Timestamp?
    }

    /// The live connection's data, kept inside `State.live` so it cannot outlive the connection.
    public struct Link: Sendable, Hashable {
        public var lastHeard: Timestamp
        /// When the venue pinged without hearing anything since; nil when no ping is outstanding.
        public var pingSentAt: Timestamp?
        public var games: [GameID: Progress]
    }

    public enum State: Sendable, Hashable {
        /// Not started.
        case idle
        /// Waiting before reconnection attempt `attempt`.
        case backingOff(until: Timestamp, attempt: Int)
        /// A connection was asked for at `since`; `attempt` counts failures since the last `welcome`.
        case connecting(since: Timestamp, attempt: Int)
        /// Connected, `hello` sent, waiting for `welcome`.
        case awaitingWelcome(since: Timestamp, attempt: Int)
        /// Relaying.
        case live(Link)
    }

    public private(set) var state: State = .idle
    public let settings: RelaySettings
    /// Each game's highest `seq` in the venue's journal (0 for a game with no entries yet).
    public private(set) var heads: [GameID: Int]
    /// The highest ack ever received per game, across connections (not across venue restarts): a lower `stored`
    /// in a later `welcome` is a public node that lost its tail.
    public private(set) var highestAcked: [GameID: Int] = [:]
    /// Games whose relay stopped (the public node is ahead of the venue), with the reason.
    public private(set) var halted: [GameID: RelayError] = [:]

    /// Whether the venue has courts to relay (a venue without any sends no `courts` message).
    public private(set) var hasCourts: Bool

    public init(heads: [GameID: Int] = [:], hasCourts: Bool = false, settings: RelaySettings = RelaySettings()) {
        self.heads = heads
        self.hasCourts = hasCourts
        self.settings = settings
    }

    /// Whether the link is up (for `/healthz`'s `uplink` and the metrics).
    public var isLive: Bool {
        if case .live = state { return true }
        return false
    }

    /// The earliest instant at which `tick` has something to do; nil when nothing is timed.
    public var nextDeadline: Timestamp? {
        switch state {
        case .idle: return nil
        case .backingOff(let until, _): return until
        case .connecting(let since, _), .awaitingWelcome(let since, _):
            return since.advanced(byMilliseconds: settings.helloDeadlineMilliseconds)
        case .live(let link):
            var deadlines = [link.lastHeard.advanced(byMilliseconds: settings.silenceLimitMilliseconds)]
            if link.pingSentAt == nil {
                deadlines.append(link.lastHeard.advanced(byMilliseconds: settings.pingIntervalMilliseconds))
            }
            for progress in link.games.values {
                if let since = progress.unackedSince {
                    deadlines.append(since.advanced(byMilliseconds: settings.writeDeadlineMilliseconds))
                }
            }
            return deadlines.min()
        }
    }

    // MARK: Events

    /// The server started with the uplink configured.
    public mutating func start(now: Timestamp) -> [VenueUplinkAction] {
        guard case .idle = state else { return [] }
        state = .connecting(since: now, attempt: 0)
        return [.connect]
    }

    /// The connection (TLS and WebSocket) is open.
    public mutating func connected(now: Timestamp) -> [VenueUplinkAction] {
        guard case .connecting(_, let attempt) = state else { return [] }
        state = .awaitingWelcome(since: now, attempt: attempt)
        return [.sendHello(heads: heads.filter { halted[$0.key] == nil })]
    }

    /// The connection failed or ended. Ignored when the machine already cut it (after a `close` action).
    public mutating func connectionLost(
        now: Timestamp, using random: inout some RandomNumberGenerator
    ) -> [VenueUplinkAction] {
        _ = backOffAfterLoss(now: now, using: &random)
        return []
    }

    /// A game was created at the venue.
    public mutating func created(_ game: GameID, now: Timestamp) -> [VenueUplinkAction] {
        guard heads[game] == nil else { return [] }
        heads[game] = 0
        return pump(game, now: now)
    }

    /// The venue's journal stored entry `seq` of `game` (its scorer got its ack).
    public mutating func appended(_ game: GameID, seq: Int, now: Timestamp) -> [VenueUplinkAction] {
        let head = heads[game]
        guard seq == (head ?? 0) + 1 else { return [.report(.appendOutOfOrder(game, head: head, got: seq))] }
        heads[game] = seq
        return pump(game, now: now)
    }

    /// `welcome`: per game, the highest `seq` the public node durably stored (absent: it does not know the game).
    public mutating func receivedWelcome(
        stored: [GameID: Int], now: Timestamp, using random: inout some RandomNumberGenerator
    ) -> [VenueUplinkAction] {
        guard case .awaitingWelcome = state else {
            return cut(.unexpectedMessage("welcome"), now: now, using: &random)
        }
        var actions: [VenueUplinkAction] = []
        var link = Link(lastHeard: now, pingSentAt: nil, games: [:])
        let unknownHere = stored.filter { heads[$0.key] == nil && halted[$0.key] == nil }
        for (game, storedSeq) in unknownHere.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            halted[game] = .publicAheadOfVenue(game, stored: storedSeq, head: nil)
            actions.append(.report(.publicAheadOfVenue(game, stored: storedSeq, head: nil)))
        }
        for (game, head) in heads.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where halted[game] == nil {
            let storedSeq = stored[game]
            if let storedSeq, storedSeq > head {
                halted[game] = .publicAheadOfVenue(game, stored: storedSeq, head: head)
                actions.append(.report(.publicAheadOfVenue(game, stored: storedSeq, head: head)))
                continue
            }
            if let acked = highestAcked[game], acked > (storedSeq ?? -1) {
                actions.append(.report(.lostTail(game, acked: acked, stored: storedSeq)))
            }
            // `welcome` acknowledges what is durable, including writes that completed after the last `ack` was sent.
            highestAcked[game] = storedSeq
            var progress = Progress(acked: storedSeq, sent: storedSeq, unackedSince: nil)
            if storedSeq == nil {
                actions.append(.sendOpen(game))
                progress.sent = 0
                progress.unackedSince = now
            }
            if head - (storedSeq ?? 0) > settings.snapshotBeyond {
                actions.append(.sendSnapshot(game, seq: head))
                progress.sent = head
                progress.unackedSince = now
            }
            link.games[game] = progress
        }
        state = .live(link)
        for game in link.games.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            actions += pump(game, now: now)
        }
        // Every welcome resends the courts, if any, whole (a change sent just before a cut may be lost): after the games'
        // `open`s, so a court's current game is known upstream before the court names it.
        return actions + (hasCourts ? [.sendCourts] : [])
    }

    /// A court of the venue was created or changed: the live link sends the courts whole; a link that is not
    /// live sends them after its next `welcome`.
    public mutating func courtsChanged() -> [VenueUplinkAction] {
        hasCourts = true
        return isLive ? [.sendCourts] : []
    }

    /// `ack`: every entry of `game` up to `seq` is durably stored at the public node.
    public mutating func receivedAck(
        _ game: GameID, seq: Int, now: Timestamp, using random: inout some RandomNumberGenerator
    ) -> [VenueUplinkAction] {
        guard case .live(var link) = state, var progress = link.games[game] else {
            return cut(.unexpectedMessage("ack"), now: now, using: &random)
        }
        guard let sent = progress.sent, seq <= sent else {
            return cut(.ackBeyondSent(game, ack: seq, sent: progress.sent), now: now, using: &random)
        }
        heard(&link, now: now)
        if seq > (progress.acked ?? -1) {
            progress.acked = seq
            highestAcked[game] = max(highestAcked[game] ?? seq, seq)
            progress.unackedSince = seq < sent ? now : nil
        }
        link.games[game] = progress
        state = .live(link)
        return pump(game, now: now)
    }

    /// `resend`: the public node refused a gap; `from` is the next `seq` it can take (0 for `open`).
    public mutating func receivedResend(
        _ game: GameID, from: Int, now: Timestamp, using random: inout some RandomNumberGenerator
    ) -> [VenueUplinkAction] {
        guard case .live(var link) = state, var progress = link.games[game] else {
            return cut(.unexpectedMessage("resend"), now: now, using: &random)
        }
        guard from >= 0, from <= (progress.sent ?? -1) + 1 else {
            return cut(.resendBeyondSent(game, from: from, sent: progress.sent), now: now, using: &random)
        }
        heard(&link, now: now)
        var actions: [VenueUplinkAction] = []
        if let acked = progress.acked, from <= acked {
            // The public node lost entries it had acknowledged on this very connection (a failover behind it).
            actions.append(.report(.lostTail(game, acked: acked, stored: from == 0 ? nil : from - 1)))
            progress.acked = from == 0 ? nil : from - 1
            highestAcked[game] = progress.acked
        }
        progress.sent = from == 0 ? nil : from - 1
        progress.unackedSince = nil
        link.games[game] = progress
        state = .live(link)
        return actions + pump(game, now: now)
    }

    /// A pong or any other sign of life from the public node.
    public mutating func receivedPong(now: Timestamp) -> [VenueUplinkAction] {
        guard case .live(var link) = state else { return [] }
        heard(&link, now: now)
        state = .live(link)
        return []
    }

    /// Timers: reconnection, the `welcome` deadline, pings, silence and the write deadline.
    public mutating func tick(now: Timestamp, using random: inout some RandomNumberGenerator) -> [VenueUplinkAction] {
        switch state {
        case .idle:
            return []
        case .backingOff(let until, let attempt):
            guard now >= until else { return [] }
            state = .connecting(since: now, attempt: attempt)
            return [.connect]
        case .connecting(let since, let attempt), .awaitingWelcome(let since, let attempt):
            let waited = now.milliseconds(since: since)
            guard waited >= settings.helloDeadlineMilliseconds else { return [] }
            backOff(now: now, attempt: attempt + 1, using: &random)
            return [.close(.helloTimedOut(waitedMilliseconds: waited))]
        case .live(var link):
            if now.milliseconds(since: link.lastHeard) >= settings.silenceLimitMilliseconds {
                return cut(.silence(lastHeard: link.lastHeard, now: now), now: now, using: &random)
            }
            for (game, progress) in link.games.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                if let since = progress.unackedSince,
                    now.milliseconds(since: since) >= settings.writeDeadlineMilliseconds
                {
                    return cut(.writeDeadlineMissed(game, unackedSince: since), now: now, using: &random)
                }
            }
            guard link.pingSentAt == nil,
                now.milliseconds(since: link.lastHeard) >= settings.pingIntervalMilliseconds
            else { return [] }
            link.pingSentAt = now
            state = .live(link)
            return [.sendPing]
        }
    }

    // MARK: Helpers

    private func heard(_ link: inout Link, now: Timestamp) {
        link.lastHeard = now
        link.pingSentAt = nil
    }

    private mutating func backOff(now: Timestamp, attempt: Int, using random: inout some RandomNumberGenerator) {
        let delay = relayBackoffDelay(attempt: attempt, settings: settings, using: &random)
        state = .backingOff(until: now.advanced(byMilliseconds: delay), attempt: attempt)
    }

    /// Cuts the connection for `error`: the machine backs off at once, so the shell's later `connectionLost` is
    /// ignored.
    private mutating func cut(
        _ error: RelayError, now: Timestamp, using random: inout some RandomNumberGenerator
    ) -> [VenueUplinkAction] {
        backOffAfterLoss(now: now, using: &random) ? [.close(error)] : []
    }

    /// Starts backing off after losing a connection (or the attempt at one); false when there was none. A live
    /// link had succeeded, so its loss starts again from the first step.
    private mutating func backOffAfterLoss(now: Timestamp, using random: inout some RandomNumberGenerator) -> Bool {
        switch state {
        case .idle, .backingOff: return false
        case .connecting(_, let attempt), .awaitingWelcome(_, let attempt):
            backOff(now: now, attempt: attempt + 1, using: &random)
        case .live:
            backOff(now: now, attempt: 1, using: &random)
        }
        return true
    }

    /// Sends what the window allows of `game`: `open` when the public node does not know it, then entries from
    /// the last sent one, never more than `maxUnacked` beyond the last ack.
    private mutating func pump(_ game: GameID, now: Timestamp) -> [VenueUplinkAction] {
        guard case .live(var link) = state, halted[game] == nil, let head = heads[game] else { return [] }
        var progress = link.games[game] ?? Progress(acked: nil, sent: nil, unackedSince: nil)
        var actions: [VenueUplinkAction] = []
        if progress.sent == nil {
            actions.append(.sendOpen(game))
            progress.sent = 0
        }
        let sent = progress.sent ?? 0
        let limit = min(head, (progress.acked ?? 0) + settings.maxUnacked)
        var next = sent + 1
        while next <= limit {
            let last = min(limit, next + settings.maxBatch - 1)
            actions.append(.sendEntries(game, seqs: next...last))
            next = last + 1
        }
        progress.sent = max(sent, next - 1)
        if !actions.isEmpty, progress.unackedSince == nil { progress.unackedSince = now }
        link.games[game] = progress
        state = .live(link)
        return actions
    }
}
