import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import Testing

/// `VenueUplinkStateMachine` as protocol traces: one expectation per event (docs/relay.md).
@Suite("Venue uplink: the venue's end of the relay")
struct VenueUplinkTraceTests {
    let game: GameID = "vhall2.game-1"
    let t0 = Timestamp(milliseconds: 1_000)

    func settings(batch: Int = 64, unacked: Int = 512) -> RelaySettings {
        var settings = RelaySettings()
        settings.maxBatch = batch
        settings.maxUnacked = unacked
        return settings
    }

    /// A machine that has sent `hello` and waits for `welcome`.
    func awaitingWelcome(heads: [GameID: Int], settings: RelaySettings) -> VenueUplinkStateMachine {
        var machine = VenueUplinkStateMachine(heads: heads, settings: settings)
        #expect(machine.start(now: t0) == [.connect])
        #expect(machine.connected(now: t0) == [.sendHello(heads: heads)])
        return machine
    }

    @Test("welcome: entries resume after what the public node stored, in batches, within the unacked window")
    func resumesAfterStored() {
        var random = SeededGenerator(seed: 1)
        var machine = awaitingWelcome(heads: [game: 10], settings: settings(batch: 3, unacked: 7))
        #expect(
            machine.receivedWelcome(stored: [game: 2], now: t0, using: &random) == [
                .sendEntries(game, seqs: 3...5), .sendEntries(game, seqs: 6...8), .sendEntries(game, seqs: 9...9),
            ])
        #expect(machine.isLive)
        // The window is full (acked 2 + 7 = 9): a new entry waits for an ack.
        #expect(machine.appended(game, seq: 11, now: t0).isEmpty)
        #expect(machine.receivedAck(game, seq: 5, now: t0, using: &random) == [.sendEntries(game, seqs: 10...11)])
        #expect(machine.receivedAck(game, seq: 11, now: t0, using: &random).isEmpty)
        #expect(machine.appended(game, seq: 12, now: t0) == [.sendEntries(game, seqs: 12...12)])
    }

    @Test("a game the public node does not know is opened first, then its entries follow from 1")
    func unknownGameIsOpened() {
        var random = SeededGenerator(seed: 1)
        var machine = awaitingWelcome(heads: [game: 2], settings: settings())
        #expect(
            machine.receivedWelcome(stored: [:], now: t0, using: &random) == [
                .sendOpen(game), .sendEntries(game, seqs: 1...2),
            ])
        let other: GameID = "vhall2.game-2"
        #expect(machine.created(other, now: t0) == [.sendOpen(other)])
        #expect(machine.appended(other, seq: 1, now: t0) == [.sendEntries(other, seqs: 1...1)])
        #expect(machine.appended(other, seq: 3, now: t0) == [.report(.appendOutOfOrder(other, head: 1, got: 3))])
    }

    @Test("after a cut at any point of a message, the venue resends exactly what the public node has not stored")
    func resumeAfterCutAtEveryPoint() {
        // Entries 1...5 went out in one message. Wherever the cut fell (before it arrived, mid-frame, before or
        // after the write, before the ack arrived), `welcome` reports the stored `seq`, and the resend starts after it.
        for stored in [nil, 0, 1, 2, 3, 4, 5] as [Int?] {
            var random = SeededGenerator(seed: 2)
            var machine = awaitingWelcome(heads: [game: 5], settings: settings())
            _ = machine.receivedWelcome(stored: [game: 0], now: t0, using: &random)
            #expect(machine.connectionLost(now: t0, using: &random).isEmpty)
            guard case .backingOff(let until, attempt: 1) = machine.state else {
                Issue.record("not backing off: \(machine.state)")
                continue
            }
            #expect(machine.tick(now: until, using: &random) == [.connect])
            #expect(machine.connected(now: until) == [.sendHello(heads: [game: 5])])
            let welcome = machine.receivedWelcome(
                stored: stored.map { [game: $0] } ?? [:], now: until, using: &random)
            switch stored {
            case nil:
                // The first welcome showed the game known (0): not knowing it now is a lost tail, reported.
                #expect(
                    welcome == [
                        .report(.lostTail(game, acked: 0, stored: nil)), .sendOpen(game),
                        .sendEntries(game, seqs: 1...5),
                    ])
            case 5: #expect(welcome.isEmpty)
            case let stored?: #expect(welcome == [.sendEntries(game, seqs: (stored + 1)...5)])
            }
        }
    }

    @Test("a resend (the public node refused a gap) rewinds to the asked seq; one beyond what was sent cuts")
    func resendRewinds() {
        var random = SeededGenerator(seed: 3)
        var machine = awaitingWelcome(heads: [game: 6], settings: settings())
        #expect(
            machine.receivedWelcome(stored: [game: 0], now: t0, using: &random) == [.sendEntries(game, seqs: 1...6)])
        #expect(machine.receivedResend(game, from: 3, now: t0, using: &random) == [.sendEntries(game, seqs: 3...6)])
        #expect(
            machine.receivedResend(game, from: 0, now: t0, using: &random).first
                == .report(.lostTail(game, acked: 0, stored: nil)))
        #expect(
            machine.receivedResend(game, from: 9, now: t0, using: &random) == [
                .close(.resendBeyondSent(game, from: 9, sent: 6))
            ])
        #expect(!machine.isLive)
    }

    @Test("an ack beyond what was sent cuts the connection; a stale ack is ignored")
    func ackChecks() {
        var random = SeededGenerator(seed: 4)
        var machine = awaitingWelcome(heads: [game: 4], settings: settings())
        _ = machine.receivedWelcome(stored: [game: 0], now: t0, using: &random)
        #expect(machine.receivedAck(game, seq: 3, now: t0, using: &random).isEmpty)
        #expect(machine.receivedAck(game, seq: 2, now: t0, using: &random).isEmpty)
        #expect(machine.highestAcked[game] == 3)
        #expect(
            machine.receivedAck(game, seq: 7, now: t0, using: &random) == [
                .close(.ackBeyondSent(game, ack: 7, sent: 4))
            ])
    }

    @Test("a public node that lost its tail is reported, and the venue resends from what it still has")
    func publicLostItsTail() {
        var random = SeededGenerator(seed: 5)
        var machine = awaitingWelcome(heads: [game: 10], settings: settings())
        _ = machine.receivedWelcome(stored: [game: 0], now: t0, using: &random)
        _ = machine.receivedAck(game, seq: 10, now: t0, using: &random)
        _ = machine.connectionLost(now: t0, using: &random)
        let later = t0.advanced(byMilliseconds: 60_000)
        #expect(machine.tick(now: later, using: &random) == [.connect])
        _ = machine.connected(now: later)
        #expect(
            machine.receivedWelcome(stored: [game: 6], now: later, using: &random) == [
                .report(.lostTail(game, acked: 10, stored: 6)), .sendEntries(game, seqs: 7...10),
            ])
    }

    @Test("a public node further behind than snapshotBeyond gets a snapshot at the venue's head, then live entries")
    func snapshotWhenFarBehind() {
        var random = SeededGenerator(seed: 6)
        var settings = settings()
        settings.snapshotBeyond = 100
        var machine = awaitingWelcome(heads: [game: 150], settings: settings)
        #expect(
            machine.receivedWelcome(stored: [:], now: t0, using: &random) == [
                .sendOpen(game), .sendSnapshot(game, seq: 150),
            ])
        #expect(machine.appended(game, seq: 151, now: t0) == [.sendEntries(game, seqs: 151...151)])
    }

    @Test("a restarted venue knows nothing of past acks: it resumes from welcome and reports no lost tail")
    func venueRestarted() {
        var random = SeededGenerator(seed: 7)
        var machine = awaitingWelcome(heads: [game: 9], settings: settings())
        #expect(
            machine.receivedWelcome(stored: [game: 7], now: t0, using: &random) == [.sendEntries(game, seqs: 8...9)])
    }

    @Test("a public node ahead of the venue (the venue restored from an older backup) stops that game's relay only")
    func publicAheadOfVenue() {
        var random = SeededGenerator(seed: 8)
        let other: GameID = "vhall2.game-2"
        var machine = awaitingWelcome(heads: [game: 10, other: 1], settings: settings())
        #expect(
            machine.receivedWelcome(
                stored: [game: 12, other: 0, "vhall2.game-9": 4, "vhall2.game-8": 2], now: t0, using: &random) == [
                    .report(.publicAheadOfVenue("vhall2.game-8", stored: 2, head: nil)),
                    .report(.publicAheadOfVenue("vhall2.game-9", stored: 4, head: nil)),
                    .report(.publicAheadOfVenue(game, stored: 12, head: 10)),
                    .sendEntries(other, seqs: 1...1),
                ])
        #expect(machine.halted[game] == .publicAheadOfVenue(game, stored: 12, head: 10))
        #expect(machine.appended(game, seq: 11, now: t0).isEmpty)
    }

    @Test("backoff: each delay lies between half and all of its doubling step, capped; seeds differ; welcome resets")
    func backoffBoundsWithJitter() {
        var settings = settings()
        settings.backoffInitialMilliseconds = 100
        settings.backoffMaximumMilliseconds = 1_600
        settings.helloDeadlineMilliseconds = 1_000_000
        var delaysBySeed: [[Int64]] = []
        for seed: UInt64 in [11, 12] {
            var random = SeededGenerator(seed: seed)
            var machine = VenueUplinkStateMachine(heads: [game: 1], settings: settings)
            var now = t0
            _ = machine.start(now: now)
            var delays: [Int64] = []
            for attempt in 1...8 {
                _ = machine.connectionLost(now: now, using: &random)
                guard case .backingOff(let until, let got) = machine.state else {
                    Issue.record("not backing off: \(machine.state)")
                    return
                }
                #expect(got == attempt)
                let step = min(1_600, Int64(100) << (attempt - 1))
                let delay = until.milliseconds(since: now)
                #expect(delay >= step / 2 && delay <= step, "attempt \(attempt): \(delay) ms for a \(step) ms step")
                #expect(machine.tick(now: until.advanced(byMilliseconds: -1), using: &random).isEmpty)
                #expect(machine.tick(now: until, using: &random) == [.connect])
                delays.append(delay)
                now = until
            }
            delaysBySeed.append(delays)
            _ = machine.connected(now: now)
            _ = machine.receivedWelcome(stored: [game: 1], now: now, using: &random)
            _ = machine.connectionLost(now: now, using: &random)
            guard case .backingOff(let until, attempt: 1) = machine.state else {
                Issue.record("welcome did not reset the attempts: \(machine.state)")
                return
            }
            #expect(until.milliseconds(since: now) <= 100)
        }
        #expect(delaysBySeed[0] != delaysBySeed[1])
    }

    @Test("health: a ping after pingInterval of silence, a cut after silenceLimit, a pong keeps the link")
    func pingsAndSilence() {
        var random = SeededGenerator(seed: 9)
        var machine = awaitingWelcome(heads: [game: 0], settings: settings())
        _ = machine.receivedWelcome(stored: [game: 0], now: t0, using: &random)
        #expect(machine.nextDeadline == t0.advanced(byMilliseconds: 10_000))
        #expect(machine.tick(now: t0.advanced(byMilliseconds: 9_999), using: &random).isEmpty)
        #expect(machine.tick(now: t0.advanced(byMilliseconds: 10_000), using: &random) == [.sendPing])
        #expect(machine.tick(now: t0.advanced(byMilliseconds: 20_000), using: &random).isEmpty)
        #expect(machine.receivedPong(now: t0.advanced(byMilliseconds: 20_000)).isEmpty)
        #expect(machine.tick(now: t0.advanced(byMilliseconds: 30_000), using: &random) == [.sendPing])
        let silent = t0.advanced(byMilliseconds: 50_000)
        #expect(
            machine.tick(now: silent, using: &random) == [
                .close(.silence(lastHeard: t0.advanced(byMilliseconds: 20_000), now: silent))
            ])
        #expect(!machine.isLive)
        #expect(machine.connectionLost(now: silent, using: &random).isEmpty)
    }

    @Test("health: entries unacknowledged past writeDeadline cut the link; welcome past helloDeadline too")
    func deadlines() {
        var random = SeededGenerator(seed: 10)
        var machine = awaitingWelcome(heads: [game: 3], settings: settings())
        #expect(
            machine.tick(now: t0.advanced(byMilliseconds: 10_000), using: &random) == [
                .close(.helloTimedOut(waitedMilliseconds: 10_000))
            ])
        machine = awaitingWelcome(heads: [game: 3], settings: settings())
        _ = machine.receivedWelcome(stored: [game: 0], now: t0, using: &random)
        let sent = t0.advanced(byMilliseconds: 1)
        #expect(machine.appended(game, seq: 4, now: sent) == [.sendEntries(game, seqs: 4...4)])
        _ = machine.receivedPong(now: t0.advanced(byMilliseconds: 9_000))
        #expect(machine.tick(now: t0.advanced(byMilliseconds: 14_999), using: &random).isEmpty)
        #expect(
            machine.tick(now: t0.advanced(byMilliseconds: 15_000), using: &random) == [
                .close(.writeDeadlineMissed(game, unackedSince: t0))
            ])
    }

    @Test(
        "courts: sent whole after each welcome (after the games' opens) and on each change while live, never while down"
    )
    func courtsFollowWelcomeAndChanges() {
        var random = SeededGenerator(seed: 1)
        var machine = awaitingWelcome(heads: [game: 0], settings: settings())
        // No court yet: a welcome sends none.
        #expect(machine.receivedWelcome(stored: [:], now: t0, using: &random) == [.sendOpen(game)])
        #expect(machine.courtsChanged() == [.sendCourts])
        // A cut: a change while down sends nothing now, and the next welcome sends the courts after the opens.
        #expect(machine.connectionLost(now: t0, using: &random).isEmpty)
        #expect(machine.courtsChanged().isEmpty)
        let later = t0.advanced(byMilliseconds: 10_000)
        #expect(machine.tick(now: later, using: &random) == [.connect])
        #expect(machine.connected(now: later) == [.sendHello(heads: [game: 0])])
        #expect(machine.receivedWelcome(stored: [:], now: later, using: &random) == [.sendOpen(game), .sendCourts])
        // A restarted venue that has courts sends them on its first welcome.
        var restarted = VenueUplinkStateMachine(hasCourts: true, settings: settings())
        #expect(restarted.start(now: t0) == [.connect])
        #expect(restarted.connected(now: t0) == [.sendHello(heads: [:])])
        #expect(restarted.receivedWelcome(stored: [:], now: t0, using: &random) == [.sendCourts])
    }
}
