import CourtsideJournal
import CourtsideModel
import CourtsideNet
import Foundation
import Synchronization

/// The public node's shell of one venue's relay (docs/relay.md, "Wiring"): it feeds `RelayedVenueStateMachine` the
/// connections and messages of `RelaySocket`s and performs its actions: relayed games created in the journal and
/// installed as read-only owners, entries stored with the venue's `seq`s and then applied by the game's owner as a
/// stored batch (the same path as a batch another cluster node stored), acks, resends, closes.
///
/// Loop-confined (on the relay's loop).
final class RelayedVenueSession {
    let venue: RelayVenue
    private let core: ApplicationCore
    private let loop: EventLoop
    private var machine: RelayedVenueStateMachine
    private var sockets: [RelayConnectionID: LoopBound<RelaySocket>] = [:]
    private var timer: TimerID?
    private var context: LoopContext?
    private let json = JournalJSON()

    private let hub: RelayHub

    init(venue: RelayVenue, hub: RelayHub, loop: EventLoop, stored: [GameID: Int]) {
        self.venue = venue
        self.hub = hub
        core = hub.core
        self.loop = loop
        machine = RelayedVenueStateMachine(venue: venue.id, stored: stored, now: core.services.clock())
    }

    private var now: Timestamp { core.services.clock() }

    // MARK: Events from the sockets

    /// A socket whose `hello` carried this venue's token.
    func connected(
        _ id: RelayConnectionID, socket: LoopBound<RelaySocket>, heads: [GameID: Int], context: LoopContext
    ) {
        self.context = context
        sockets[id] = socket
        perform(machine.connected(id, now: now))
        guard let shared = core.services.shared else {
            return perform(machine.receivedHello(id, heads: heads, now: now))
        }
        // Other nodes write the same journal: the venue may have relayed through one of them since this node last
        // saw it, so `welcome` reports what the journal holds now, not what this node remembers.
        readHeads(of: Array(heads.keys.filter(machine.owns)), in: shared, connection: id, heads: heads)
    }

    /// Reads from the shared journal the highest stored `seq` of each of `games` (a game it does not hold is left
    /// out; one it cannot read now keeps what this node knows, and a write that follows a stale `welcome` is refused
    /// by the journal's sequence check, which cuts the link: the venue resends after the next `welcome`), then
    /// answers the `hello` of `connection`.
    private func readHeads(
        of games: [GameID], in shared: any SharedGameJournal, connection id: RelayConnectionID, heads: [GameID: Int]
    ) {
        guard !games.isEmpty else { return headsRead([:], connection: id, heads: heads) }
        let known = core.relayHeads.withLock { $0 }.merging(machine.games.compactMapValues(\.stored)) { max($0, $1) }
        let me = bound
        let results = Mutex<(left: Int, stored: [GameID: Int])>((games.count, [:]))
        @Sendable func done(_ game: GameID, _ seq: Int?) {
            let finished = results.withLock { results -> [GameID: Int]? in
                if let seq { results.stored[game] = seq }
                results.left -= 1
                return results.left == 0 ? results.stored : nil
            }
            if let finished { me.run { $0.headsRead(finished, connection: id, heads: heads) } }
        }
        for game in games {
            if let held = known[game] {
                shared.events(ofGame: game, after: held) { result in
                    done(game, (try? result.get())?.last.map(\.event.sequence) ?? held)
                }
            } else {
                shared.loadGame(game) { result in
                    guard case .success(let journaled) = result else { return done(game, nil) }
                    // Held by no one here yet: this node loads it, so what it stores next has an owner to show it.
                    me.run { $0.hub.router.withLock { $0 }?.relayed([], of: game) }
                    done(game, journaled.lastEventSequence)
                }
            }
        }
    }

    private func headsRead(_ stored: [GameID: Int], connection id: RelayConnectionID, heads: [GameID: Int]) {
        machine.learned(stored: stored)
        perform(machine.receivedHello(id, heads: heads, now: now))
    }

    func received(_ message: RelayMessage, on id: RelayConnectionID) {
        switch message {
        case .open(let game, let record): perform(machine.receivedOpen(id, game: game, record: record, now: now))
        case .entries(let game, let entries):
            perform(machine.receivedEntries(id, game: game, entries: entries, now: now))
        case .snapshot(let game, let seq, let document):
            perform(machine.receivedSnapshot(id, game: game, seq: seq, document: document, now: now))
        case .courts(let courts): perform(machine.receivedCourts(id, courts: courts, now: now))
        case .hello, .welcome, .ack, .resend:
            // The socket passes only the venue's messages after its `hello`; these have no meaning here.
            send(.close(id, .unexpectedMessage("\(message)".prefix(40).description)))
        }
    }

    func heard(on id: RelayConnectionID) {
        perform(machine.receivedPing(id, now: now))
    }

    func disconnected(_ id: RelayConnectionID) {
        sockets[id] = nil
        perform(machine.disconnected(id, now: now))
    }

    /// Closes the current connection from this side (`RelayHub.dropConnections`); its close is reported as usual.
    func dropConnection() {
        for socket in sockets.values { socket.run { $0.close(reason: "dropped by the public node", code: .goingAway) } }
    }

    // MARK: Actions

    private func perform(_ actions: [RelayedVenueAction]) {
        for action in actions { send(action) }
        report(actions)
        armTimer()
    }

    /// The relay's figures of each game `actions` touched (docs/relay.md, "Metrics").
    private func report(_ actions: [RelayedVenueAction]) {
        var touched: [GameID: Bool] = [:]
        for action in actions {
            switch action {
            case .sendAck(let game, _): touched[game] = true
            case .storeEntries(let game, _), .showLink(let game, _): touched[game] = touched[game] ?? false
            default: break
            }
        }
        let archived = core.archivedGames
        for (game, acked) in touched {
            guard let copy = machine.games[game], let stored = copy.stored else { continue }
            core.metrics.relayGames.update(
                game, venue: venue.id, venueSeq: max(copy.venueHead, stored), storedSeq: stored, acked: acked,
                isRetired: { archived.contains(game) })
        }
    }

    private func send(_ action: RelayedVenueAction) {
        switch action {
        case .sendWelcome(let id, let stored):
            write(.welcome(stored: stored), to: id)
        case .sendAck(let game, let seq):
            if let id = currentConnection { write(.ack(game, seq: seq), to: id) }
        case .sendResend(let game, let from):
            if let id = currentConnection { write(.resend(game, from: from), to: id) }
        case .storeOpen(let game, let record):
            storeOpen(game, record: record)
        case .storeEntries(let game, let entries):
            storeEntries(game, entries)
        case .storeSnapshot(let game, _, _):
            // Not stored yet: the venue node sends entries from `stored + 1` however far behind (docs/relay.md).
            perform(machine.storeFailed(game, reason: "snapshots are not taken by this node yet", now: now))
        case .showLink(let game, let state):
            let source = RelaySource(venue: venue.id, state: state)
            // Outside the numbered patches, so the public node's seqs stay the venue's.
            if let handle = core.registry.handle(game), handle.showSource(source) {
                let text = source.message(game: game).description
                handle.withOwner(from: nil) { owner in owner.publishUnnumbered(text, event: RelaySource.eventName) }
            }
        case .showCourts(let courts):
            let (venue, logger) = (venue, core.logger)
            core.courts.run { owner in
                owner.relay(courts, venue: venue.name) { result in
                    switch result {
                    case .success(let refused) where !refused.isEmpty:
                        logger.warning(
                            "relayed courts not shown: the server shows \(CourtsOwner.maxRelayedCourts) at most",
                            ["venue": venue.id, "courts": refused.map(\.rawValue).joined(separator: ",")])
                    case .success:
                        break
                    case .failure(let error):
                        logger.warning(
                            "relayed courts not stored: the venue sends them again",
                            ["venue": venue.id, "error": "\(error)"])
                    }
                }
            }
        case .close(let id, let error):
            core.logger.warning("relay connection closed", ["venue": venue.id, "reason": "\(error)"])
            sockets.removeValue(forKey: id)?.run { socket in socket.close(reason: "\(error)") }
        }
    }

    private var currentConnection: RelayConnectionID? {
        if case .up(let link) = machine.state { return link.connection }
        return nil
    }

    private func write(_ message: RelayMessage, to id: RelayConnectionID) {
        let frame = RelayWire.encode(message)
        sockets[id]?.run { socket in socket.send(frame) }
    }

    private func armTimer() {
        guard let context else { return }
        if let timer { context.cancelTimer(timer) }
        timer = nil
        guard let deadline = machine.nextDeadline else { return }
        let delay = max(0, deadline.milliseconds(since: now))
        timer = context.scheduleTimer(after: .milliseconds(delay)) { [weak self] _ in
            guard let self else { return }
            self.timer = nil
            self.perform(self.machine.tick(now: self.now))
        }
    }

    /// This session as journal completions reach it back on its loop.
    private var bound: LoopBound<RelayedVenueSession> { LoopBound(self, loop: loop) }

    private func storeOpen(_ game: GameID, record bytes: [UInt8]) {
        let record: GameRecord
        do throws(RelayError) {
            record = try RelayedGameRecord.decode(
                bytes, game: game, venue: venue.id, digest: SecretToken.sha256(SecretToken.generate()))
        } catch {
            perform(machine.storeFailed(game, reason: "\(error)", now: now))
            return
        }
        let me = bound
        core.services.journal.createGame(record) { result in me.run { $0.opened(record, result) } }
    }

    private func opened(_ record: GameRecord, _ result: Result<Void, JournalError>) {
        switch result {
        case .success:
            core.relayHeads.withLock { $0[record.id] = 0 }
            if core.registry.handle(record.id) == nil {
                core.install(
                    game: Game(setup: record.setup), seq: 0, now: record.createdAt, restored: false,
                    digest: record.scorerTokenSHA256, isArchived: false, relayedFrom: venue.id)
            }
            core.logger.info("relayed game created", ["game": record.id.rawValue, "venue": venue.id])
            perform(machine.stored(record.id, seq: 0, now: now))
        case .failure(let error):
            perform(machine.storeFailed(record.id, reason: "\(error)", now: now))
        }
    }

    private func storeEntries(_ game: GameID, _ entries: [RelayEntry]) {
        var events: [JournaledEvent] = []
        for entry in entries {
            do throws(JournalError) {
                let event = try json.decode(GameEvent.self, from: entry.event, game: game, sequence: entry.seq)
                guard event.sequence == entry.seq else {
                    throw JournalError.corruptRecord(
                        game, sequence: entry.seq, reason: "the event's sequence is \(event.sequence)")
                }
                events.append(JournaledEvent(event, presentationSequence: entry.presentationSequence))
            } catch {
                perform(machine.storeFailed(game, reason: "\(error)", now: now))
                return
            }
        }
        let (me, batch) = (bound, events)
        core.services.journal.append(batch, toGame: game) { result in me.run { $0.appended(game, batch, result) } }
    }

    private func appended(_ game: GameID, _ events: [JournaledEvent], _ result: Result<Void, JournalError>) {
        switch result {
        case .success:
            let last = events.last?.event.sequence ?? 0
            core.relayHeads.withLock { $0[game] = max($0[game] ?? 0, last) }
            // Stored, then shown: the owner applies it as a batch another node stored (docs/relay.md). On a shared
            // journal through the feed's router, which loads a game this node does not hold yet.
            if let router = hub.router.withLock({ $0 }) {
                router.relayed(events, of: game)
            } else {
                core.registry.handle(game)?.withOwner(from: nil) { owner in owner.receiveStored(events) }
            }
            perform(machine.stored(game, seq: last, now: now))
        case .failure(let error):
            perform(machine.storeFailed(game, reason: "\(error)", now: now))
        }
    }
}

@available(*, unavailable)
extension RelayedVenueSession: Sendable {}
