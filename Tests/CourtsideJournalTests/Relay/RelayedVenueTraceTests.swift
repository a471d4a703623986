import CourtsideJournal
import CourtsideModel
import Testing

/// `RelayedVenueStateMachine` as protocol traces: one expectation per event (docs/relay.md).
@Suite("Relayed venue: the public node's end of the relay")
struct RelayedVenueTraceTests {
    let game: GameID = "vhall2.game-1"
    let t0 = Timestamp(milliseconds: 1_000)
    let first = RelayConnectionID(1)

    func entries(_ seqs: ClosedRange<Int>) -> [RelayEntry] {
        seqs.map { RelayPair.entry(game, $0) }
    }

    /// A machine with `stored` entries of the game and a connection that said `hello` (venue head `head`).
    func live(stored: Int, head: Int) -> RelayedVenueStateMachine {
        var machine = RelayedVenueStateMachine(venue: "vhall2", stored: [game: stored], now: t0)
        #expect(machine.connected(first, now: t0).isEmpty)
        #expect(
            machine.receivedHello(first, heads: [game: head], now: t0) == [
                .sendWelcome(first, stored: [game: stored]), .showLink(game, .up(behind: head - stored)),
            ])
        return machine
    }

    @Test("entries in order are stored, and acked only once durable")
    func storesInOrder() {
        var machine = live(stored: 0, head: 3)
        #expect(
            machine.receivedEntries(first, game: game, entries: entries(1...3), now: t0) == [
                .storeEntries(game, entries(1...3))
            ])
        #expect(machine.stored(game, seq: 3, now: t0) == [.sendAck(game, seq: 3), .showLink(game, .up(behind: 0))])
    }

    @Test("duplicates are ignored; a message of only duplicates repeats the ack the venue may have lost")
    func duplicatesIgnored() {
        var machine = live(stored: 2, head: 6)
        #expect(
            machine.receivedEntries(first, game: game, entries: entries(1...4), now: t0) == [
                .storeEntries(game, entries(3...4))
            ])
        // 3...4 are being written: a resend of them is ignored without an ack beyond what is durable.
        #expect(
            machine.receivedEntries(first, game: game, entries: entries(3...4), now: t0) == [.sendAck(game, seq: 2)])
        #expect(machine.stored(game, seq: 4, now: t0) == [.sendAck(game, seq: 4), .showLink(game, .up(behind: 2))])
        #expect(
            machine.receivedEntries(first, game: game, entries: entries(1...2), now: t0) == [.sendAck(game, seq: 4)])
    }

    @Test("a gap is refused once and asked again; later entries are dropped until the asked seq arrives")
    func gapRefused() {
        var machine = live(stored: 2, head: 9)
        #expect(
            machine.receivedEntries(first, game: game, entries: entries(5...6), now: t0) == [.sendResend(game, from: 3)]
        )
        #expect(machine.receivedEntries(first, game: game, entries: entries(7...8), now: t0).isEmpty)
        #expect(
            machine.receivedEntries(first, game: game, entries: entries(3...9), now: t0) == [
                .storeEntries(game, entries(3...9))
            ])
        #expect(machine.games[game]?.accepted == 9)
    }

    @Test("entries of a game the public node does not know ask for its open (resend from 0)")
    func unknownGameAsksForOpen() {
        let other: GameID = "vhall2.game-2"
        var machine = live(stored: 0, head: 0)
        #expect(
            machine.receivedEntries(first, game: other, entries: [RelayPair.entry(other, 1)], now: t0) == [
                .sendResend(other, from: 0)
            ])
        #expect(machine.receivedOpen(first, game: other, record: [1], now: t0) == [.storeOpen(other, record: [1])])
        #expect(machine.receivedOpen(first, game: other, record: [1], now: t0).isEmpty)
        #expect(machine.stored(other, seq: 0, now: t0) == [.sendAck(other, seq: 0), .showLink(other, .up(behind: 0))])
        #expect(machine.receivedOpen(first, game: other, record: [1], now: t0) == [.sendAck(other, seq: 0)])
    }

    @Test("a failed write rolls back to what is durable and cuts the link, so the venue resends")
    func storeFailed() {
        var machine = live(stored: 1, head: 3)
        _ = machine.receivedEntries(first, game: game, entries: entries(2...3), now: t0)
        let failed = t0.advanced(byMilliseconds: 5)
        #expect(
            machine.storeFailed(game, reason: "disk full", now: failed) == [
                .close(first, .journalWriteFailed(game, reason: "disk full")), .showLink(game, .down(since: failed)),
            ])
        #expect(machine.games[game]?.accepted == 1)
        let second = RelayConnectionID(2)
        _ = machine.connected(second, now: failed)
        #expect(
            machine.receivedHello(second, heads: [game: 3], now: failed).first
                == .sendWelcome(second, stored: [game: 1]))
        #expect(
            machine.receivedEntries(second, game: game, entries: entries(2...3), now: t0) == [
                .storeEntries(game, entries(2...3))
            ])
    }

    @Test("the link shows down since the cut, then up and behind while catching up, then caught up")
    func linkDownShownAndCleared() {
        var machine = live(stored: 4, head: 4)
        let cut = t0.advanced(byMilliseconds: 7_000)
        #expect(machine.disconnected(first, now: cut) == [.showLink(game, .down(since: cut))])
        #expect(machine.linkState(of: game) == .down(since: cut))
        // A connection that has not said hello yet does not clear it.
        let second = RelayConnectionID(2)
        #expect(machine.connected(second, now: cut.advanced(byMilliseconds: 100)).isEmpty)
        #expect(machine.linkState(of: game) == .down(since: cut))
        let back = cut.advanced(byMilliseconds: 200)
        #expect(
            machine.receivedHello(second, heads: [game: 18], now: back) == [
                .sendWelcome(second, stored: [game: 4]), .showLink(game, .up(behind: 14)),
            ])
        _ = machine.receivedEntries(second, game: game, entries: entries(5...18), now: back)
        #expect(machine.stored(game, seq: 10, now: back) == [.sendAck(game, seq: 10), .showLink(game, .up(behind: 8))])
        #expect(machine.stored(game, seq: 18, now: back) == [.sendAck(game, seq: 18), .showLink(game, .up(behind: 0))])
        #expect(machine.linkState(of: game) == .up(behind: 0))
    }

    @Test("a restarted venue's new connection replaces the half-open old one; the old one's late messages are refused")
    func venueRestartedReplacesConnection() {
        var machine = live(stored: 2, head: 5)
        _ = machine.receivedEntries(first, game: game, entries: entries(3...5), now: t0)
        let second = RelayConnectionID(2)
        let restart = t0.advanced(byMilliseconds: 3_000)
        #expect(
            machine.connected(second, now: restart) == [
                .close(first, .replaced), .showLink(game, .down(since: restart)),
            ])
        #expect(
            machine.receivedEntries(first, game: game, entries: entries(6...6), now: restart) == [
                .close(first, .unexpectedMessage("entries"))
            ])
        // The welcome reports what is durable (2); 3...5 are still being written, so their resend is a duplicate.
        #expect(
            machine.receivedHello(second, heads: [game: 6], now: restart).first
                == .sendWelcome(second, stored: [game: 2]))
        #expect(
            machine.receivedEntries(second, game: game, entries: entries(3...6), now: restart) == [
                .storeEntries(game, entries(6...6))
            ])
        #expect(machine.stored(game, seq: 5, now: restart).first == .sendAck(game, seq: 5))
    }

    @Test("a public node restored from a backup welcomes with what it has; a snapshot replaces a far-behind copy")
    func lostTailAndSnapshot() {
        var machine = live(stored: 3, head: 5_000)
        #expect(
            machine.receivedSnapshot(first, game: game, seq: 5_000, document: [7], now: t0) == [
                .storeSnapshot(game, seq: 5_000, document: [7])
            ])
        // A resent snapshot while the first is being written: ignored, the durable ack repeated (stale, harmless).
        #expect(
            machine.receivedSnapshot(first, game: game, seq: 5_000, document: [7], now: t0) == [.sendAck(game, seq: 3)])
        #expect(
            machine.stored(game, seq: 5_000, now: t0) == [.sendAck(game, seq: 5_000), .showLink(game, .up(behind: 0))])
        #expect(machine.receivedEntries(first, game: game, entries: entries(5_001...5_001), now: t0).count == 1)
    }

    @Test("a game id without the venue's prefix is refused and the link cut")
    func foreignGameRefused() {
        var machine = RelayedVenueStateMachine(venue: "vhall2", stored: [:], now: t0)
        _ = machine.connected(first, now: t0)
        #expect(
            machine.receivedHello(first, heads: ["game-1": 3], now: t0) == [
                .close(first, .foreignGame(venue: "vhall2", game: "game-1"))
            ])
        #expect(machine.owns("vhall2.game-1"))
        #expect(!machine.owns("vhall2x.game-1"))
        #expect(!machine.owns("vhall2."))
        var up = live(stored: 0, head: 0)
        #expect(
            up.receivedOpen(first, game: "vother.game-1", record: [], now: t0) == [
                .close(first, .foreignGame(venue: "vhall2", game: "vother.game-1")), .showLink(game, .down(since: t0)),
            ])
    }

    @Test("health: hello past helloDeadline, and silence past silenceLimit, cut the connection")
    func deadlines() {
        var machine = RelayedVenueStateMachine(venue: "vhall2", stored: [game: 0], now: t0)
        _ = machine.connected(first, now: t0)
        #expect(machine.tick(now: t0.advanced(byMilliseconds: 9_999)).isEmpty)
        #expect(
            machine.tick(now: t0.advanced(byMilliseconds: 10_000)) == [
                .close(first, .helloTimedOut(waitedMilliseconds: 10_000))
            ])
        #expect(machine.linkState(of: game) == .down(since: t0))
        var up = live(stored: 0, head: 0)
        let pinged = t0.advanced(byMilliseconds: 20_000)
        #expect(up.receivedPing(first, now: pinged).isEmpty)
        #expect(up.tick(now: pinged.advanced(byMilliseconds: 29_999)).isEmpty)
        let silent = pinged.advanced(byMilliseconds: 30_000)
        #expect(
            up.tick(now: silent) == [
                .close(first, .silence(lastHeard: pinged, now: silent)), .showLink(game, .down(since: pinged)),
            ])
    }

    @Test("courts: the venue's are shown whole; another venue's id or too many cut the link; none before hello")
    func courtsShownOrRefused() throws {
        var court = try Court(id: "vhall2.court-1", name: "Court 1")
        court.put(game)
        var machine = live(stored: 0, head: 0)
        #expect(machine.receivedCourts(first, courts: [court], now: t0) == [.showCourts([court])])
        #expect(machine.ownsCourt("vhall2.court-1"))
        #expect(!machine.ownsCourt("court-1"))
        let foreign = try Court(id: "vother.court-1", name: "Court 1")
        #expect(
            machine.receivedCourts(first, courts: [court, foreign], now: t0) == [
                .close(first, .foreignCourt(venue: "vhall2", court: "vother.court-1")),
                .showLink(game, .down(since: t0)),
            ])
        var crowded = live(stored: 0, head: 0)
        let many = try (0...RelayedVenueStateMachine.maxCourts).map {
            try Court(id: CourtID("vhall2.court-\($0)"), name: "Court \($0)")
        }
        #expect(
            crowded.receivedCourts(first, courts: many, now: t0) == [
                .close(first, .tooManyCourts(count: many.count, limit: RelayedVenueStateMachine.maxCourts)),
                .showLink(game, .down(since: t0)),
            ])
        var early = RelayedVenueStateMachine(venue: "vhall2", stored: [:], now: t0)
        _ = early.connected(first, now: t0)
        #expect(early.receivedCourts(first, courts: [court], now: t0) == [.close(first, .unexpectedMessage("courts"))])
    }
}
