import CourtsideJournal
import CourtsideModel
import CourtsideViewModels
import Testing

@testable import Courtside

/// The same traces run against both modes of the game's owner (docs/journal.md, "One owner, two journals"):
/// local (show before durable, many writes in flight) and shared (store before show, one in flight, catch up on
/// a conflict). Each asserts the replies, the patches published and the writes stored; where the table gives the
/// modes different answers, the trace says which.
@Suite("Game owner traces, both modes")
struct GameOwnerTraceTests {
    typealias Mode = OwnerHarness.Mode

    @Test(
        "an accepted command is acked with its seq once stored; local shows it before, shared after",
        arguments: Mode.allCases)
    func accepted(mode: Mode) throws {
        let harness = try OwnerHarness(mode)
        harness.move("c1")
        #expect(harness.replies("c1").isEmpty, "the ack waits for the journal")
        #expect(harness.publishedSeqs == (mode == .local ? [1] : []))
        harness.run()
        #expect(harness.replies("c1") == [.accepted(id: "c1", seq: 1)])
        #expect(harness.publishedSeqs == [1])
        #expect(try harness.storedEvents().map(\.presentationSequence) == [1])
    }

    @Test("the same commands publish the same patch bytes under the same numbers in both modes")
    func sameBytes() throws {
        var patches: [[[UInt8]]] = []
        for mode in Mode.allCases {
            let harness = try OwnerHarness(mode)
            harness.move("c1")
            harness.run()
            harness.advance(by: 1_500)
            harness.move("c2", "away-1", "onePoint")
            harness.send(#"{"type":"undo","id":"c3"}"#, key: "c3")
            harness.run()
            #expect(harness.replies("c2") == [.accepted(id: "c2", seq: 2)])
            #expect(harness.replies("c3") == [.accepted(id: "c3", seq: 3)])
            patches.append(harness.patches.map { $0.bytes })
        }
        #expect(patches[0].count == 3)
        #expect(patches[0] == patches[1])
    }

    @Test(
        "local: many writes in flight, shared: one; either way every command is acked in order",
        arguments: Mode.allCases)
    func inFlight(mode: Mode) throws {
        var limits = GameLimits(resumeWindow: 64)
        limits.maxUnconfirmedWrites = 2
        let harness = try OwnerHarness(mode, limits: limits)
        for number in 1...4 { harness.move("c\(number)") }
        #expect(harness.log.writes.count == (mode == .local ? 2 : 1))
        #expect(harness.publishedSeqs == (mode == .local ? [1, 2] : []))
        harness.run()
        for number in 1...4 {
            #expect(harness.replies("c\(number)") == [.accepted(id: CommandID(rawValue: "c\(number)"), seq: number)])
        }
        #expect(harness.publishedSeqs == [1, 2, 3, 4])
        #expect(try harness.storedEvents().map(\.presentationSequence) == [1, 2, 3, 4])
    }

    @Test("a command the rules refuse gets its typed error and stores nothing", arguments: Mode.allCases)
    func refused(mode: Mode) throws {
        let harness = try OwnerHarness(mode)
        harness.send(#"{"type":"undo","id":"u1"}"#, key: "u1")
        harness.run()
        let reply = try #require(harness.replies("u1").first)
        guard case .rejected(let id, _) = reply else {
            Issue.record("accepted: \(reply)")
            return
        }
        #expect(id == "u1")
        #expect(try harness.storedEvents().isEmpty)
        #expect(harness.publishedSeqs.isEmpty)
    }

    @Test("a retried accepted id gets its original seq and is stored once", arguments: Mode.allCases)
    func retryAccepted(mode: Mode) throws {
        let harness = try OwnerHarness(mode)
        harness.move("c1")
        harness.move("c1")
        harness.run()
        harness.move("c2")
        harness.move("c1")
        harness.run()
        #expect(harness.replies("c1") == Array(repeating: .accepted(id: "c1", seq: 1), count: 3))
        #expect(harness.replies("c2") == [.accepted(id: "c2", seq: 2)])
        #expect(try harness.storedEvents().count == 2)
    }

    @Test(
        "a retried refused id gets the remembered refusal, even once the game would take it", arguments: Mode.allCases)
    func retryRefused(mode: Mode) throws {
        let harness = try OwnerHarness(mode)
        harness.send(#"{"type":"undo","id":"u1"}"#, key: "u1")
        harness.run()
        harness.move("m1")
        harness.run()
        // Now there is a move to undo; the retry of `u1` is still answered as it was.
        harness.send(#"{"type":"undo","id":"u1"}"#, key: "u1")
        harness.run()
        let replies = harness.replies("u1")
        #expect(replies.count == 2)
        #expect(replies.first == replies.last)
        #expect(try harness.storedEvents().count == 1)
    }

    @Test("a command accepted before a restart keeps its seq", arguments: Mode.allCases)
    func restart(mode: Mode) throws {
        var game = Game(setup: try OwnerHarness(mode).owner.viewModel.game.setup)
        let outcome = try game.apply(.move("home-0", .twoPoints, id: "c1"), at: OwnerHarness.start)
        let stored = outcome.newEvents.map { JournaledEvent($0, presentationSequence: 5) }
        let harness = try OwnerHarness(mode, restoring: stored, seq: 7, restoredAcks: ["c1": 5])
        harness.move("c1")
        harness.move("c2")
        harness.run()
        #expect(harness.replies("c1") == [.accepted(id: "c1", seq: 5)])
        #expect(harness.replies("c2") == [.accepted(id: "c2", seq: 8)])
        #expect(try harness.storedEvents().count == 2)
    }

    @Test(
        "a failed write: local fails the game and stores it again; shared answers and catches up",
        arguments: Mode.allCases)
    func writeFails(mode: Mode) throws {
        let harness = try OwnerHarness(mode)
        harness.log.failNextWrites(.unavailable(reason: "test"))
        harness.move("c1")
        harness.run()
        #expect(harness.replies("c1").map(\.isAccepted) == [false])
        harness.move("c1")
        harness.run()
        switch mode {
        case .local:
            // Published before the disk failed: the game refuses until the write is stored again.
            #expect(harness.owner.isFailed)
            #expect(harness.reportedFailures.count == 1)
            #expect(harness.replies("c1").map(\.isAccepted) == [false, false])
            harness.advance(by: 1_000)
            #expect(!harness.owner.isFailed)
            #expect(harness.reportedRecoveries == 1)
            harness.move("c1")
            harness.run()
            #expect(harness.replies("c1").last == .accepted(id: "c1", seq: 1))
        case .shared:
            // Nothing was shown; the retry catches up first (the append might have been stored), then stores it.
            #expect(!harness.owner.isFailed)
            #expect(harness.replies("c1").last == .accepted(id: "c1", seq: 1))
        }
        #expect(harness.publishedSeqs == [1])
        #expect(try harness.storedEvents().map(\.presentationSequence) == [1])
    }

    @Test("the time limit: one tick at the deadline, stored, published with the same bytes in both modes")
    func timeLimit() throws {
        var patches: [[[UInt8]]] = []
        for mode in Mode.allCases {
            let harness = try OwnerHarness(mode, rules: .fiba3x3)
            harness.send(#"{"type":"clock","id":"s1","action":"start"}"#, key: "s1")
            harness.run()
            #expect(harness.scheduler.scheduledTimerCount == 1, "one tick for the deadline")
            harness.advance(by: 599_999)
            #expect(harness.publishedSeqs == [1], "nothing before the deadline")
            harness.advance(by: 1)
            #expect(try harness.storedEvents().last?.event.kind == .timeLimitReached)
            #expect(harness.publishedSeqs == [1, 2])
            #expect(harness.scheduler.scheduledTimerCount == 0, "the clock stopped: no deadline")
            patches.append(harness.patches.map { $0.bytes })
        }
        #expect(patches[0] == patches[1])
    }

    @Test(
        "two scorers: a pending play's window closes on the owner's own timer, stored and published in both modes",
        arguments: Mode.allCases)
    func confirmationWindow(mode: Mode) throws {
        let harness = try OwnerHarness(mode, rules: try Rules.pickup.confirmedByTwoScorers(windowMs: 8_000))
        harness.move("s1")
        harness.run()
        #expect(harness.scheduler.scheduledTimerCount == 1, "one tick for the window's end, the clock stopped")
        harness.advance(by: 7_999)
        #expect(harness.publishedSeqs == [1], "nothing before the window ends")
        harness.advance(by: 1)
        let last = try #require(try harness.storedEvents().last)
        #expect(last.event.kind == .confirmationExpired(play: 1))
        #expect(last.event.at == OwnerHarness.start.advanced(byMilliseconds: 8_000))
        #expect(harness.publishedSeqs == [1, 2])
        #expect(harness.owner.viewModel.game.conflicts.map(\.number) == [1])
        #expect(harness.scheduler.scheduledTimerCount == 0, "nothing waits: no deadline")
    }

    @Test("shared: three nodes tick at one deadline: one time limit is stored, every node publishes the same bytes")
    func oneTickWins() throws {
        let origin = try OwnerHarness(.shared, rules: .fiba3x3)
        let others = [
            try OwnerHarness(.shared, rules: .fiba3x3, sharing: origin),
            try OwnerHarness(.shared, rules: .fiba3x3, sharing: origin),
        ]
        origin.send(#"{"type":"clock","id":"s1","action":"start"}"#, key: "s1")
        origin.run()
        // The feed brings the stored start to the other nodes: each arms its own timer for the limit.
        for node in others { node.owner.receiveStored(try origin.storedEvents()) }
        for node in [origin] + others {
            #expect(node.scheduler.scheduledTimerCount == 1)
            node.advance(by: 600_000)
        }
        let stored = try origin.storedEvents()
        #expect(stored.map(\.event.kind).filter { $0 == .timeLimitReached }.count == 1)
        #expect(stored.map(\.presentationSequence) == [1, 2])
        for node in others {
            #expect(node.patches.map(\.bytes) == origin.patches.map(\.bytes))
            #expect(node.scheduler.scheduledTimerCount == 0, "nothing left to do: no timer")
        }
    }

    @Test("shared: own batches shown from their proposal, others' applied from the log, each once, same bytes")
    func oneApplication() throws {
        let origin = try OwnerHarness(.shared, rules: .fiba3x3)
        let other = try OwnerHarness(.shared, rules: .fiba3x3, sharing: origin)
        origin.send(#"{"type":"clock","id":"s1","action":"start"}"#, key: "s1")
        origin.run()
        origin.advance(by: 1_500)
        origin.move("c2", "away-1", "twoPoints")
        origin.run()
        origin.advance(by: 600_000)
        let stored = try origin.storedEvents()
        #expect(stored.map(\.presentationSequence) == [1, 2, 3], "a start, a move, the time limit")
        #expect(origin.owner.proposalsShown == 3)
        #expect(origin.owner.storedBatchesApplied == 0, "its own batches are not applied again from the log")
        for seq in 1...3 { other.owner.receiveStored(stored.filter { $0.presentationSequence == seq }) }
        other.run()
        #expect(other.owner.storedBatchesApplied == 3)
        #expect(other.owner.proposalsShown == 0)
        #expect(other.patches.map(\.bytes) == origin.patches.map(\.bytes))
        #expect(other.owner.presenter.document == origin.owner.presenter.document)
    }

    @Test(
        "a crew member added then revoked: each change one stored batch; a refusal is remembered per issuer",
        arguments: Mode.allCases)
    func crew(mode: Mode) throws {
        let harness = try OwnerHarness(mode)
        harness.administer(
            .addCrewMember(role: .stats, label: "Stats", tokenSHA256: String(repeating: "a", count: 64)), key: "add")
        harness.run()
        #expect(harness.replies("add") == [.accepted(id: "m1", seq: 1)])
        // A statistician scores no points: refused, and the retry gets the same refusal.
        harness.move("s1", by: "m1")
        harness.move("s1", by: "m1")
        harness.run()
        #expect(harness.replies("s1").map(\.errorCode?.rawValue) == ["not_allowed_for_role", "not_allowed_for_role"])
        // The same command from the scorer token is decided again (its role takes it), not the member's refusal.
        harness.move("s1")
        harness.run()
        #expect(harness.replies("s1").last == .accepted(id: "s1", seq: 2))
        harness.administer(.revokeCrewMember("m1"), key: "revoke")
        harness.run()
        // The revocation shows nothing in the document: a local journal keeps the shown `seq` for its batch, a
        // shared log numbers every stored batch (each node applies it under that number).
        let revokedSeq = mode == .local ? 2 : 3
        #expect(harness.replies("revoke") == [.accepted(id: "#revoke", seq: revokedSeq)])
        harness.send(#"{"type":"undo","id":"u1"}"#, key: "u1", by: "m1")
        harness.run()
        #expect(harness.replies("u1").map(\.errorCode?.rawValue) == ["member_revoked"])
        #expect(harness.owner.viewModel.game.activeCrew.isEmpty)
        let stored = try harness.storedEvents()
        #expect(stored.map(\.presentationSequence) == [1, 2, revokedSeq])
        guard case .crewMemberAdded(let added)? = stored.first?.event.kind else {
            Issue.record("first stored: \(String(describing: stored.first))")
            return
        }
        #expect(added.id == "m1" && added.role == .stats)
        #expect(stored.last?.event.kind == .crewMemberRevoked("m1"))
        #expect(harness.publishedSeqs == (mode == .local ? [1, 2] : [1, 2, 3]))
    }

    @Test("archive: journaled after the work before it; commands then answer game_archived", arguments: Mode.allCases)
    func archive(mode: Mode) throws {
        let harness = try OwnerHarness(mode)
        harness.move("c1")
        harness.owner.archive(at: OwnerHarness.start)
        harness.move("c2")
        harness.run()
        #expect(harness.replies("c1") == [.accepted(id: "c1", seq: 1)])
        #expect(harness.replies("c2").first?.errorCode == WireErrorCode.gameArchived)
        let stored = try #require(try harness.log.stored("g1"))
        #expect(stored.isArchived)
        #expect(stored.events.count == 1)
    }

    @Test("another node's stored batch: shared applies it once; local has no other node", arguments: Mode.allCases)
    func remoteBatch(mode: Mode) throws {
        let harness = try OwnerHarness(mode)
        var game = harness.owner.viewModel.game
        let outcome = try game.apply(.move("away-0", .onePoint, id: "r1"), at: OwnerHarness.start)
        let batch = outcome.newEvents.map { JournaledEvent($0, presentationSequence: 1) }
        if mode == .shared { try harness.log.appendAsAnotherNode(batch, toGame: "g1") }
        harness.owner.receiveStored(batch)
        harness.owner.receiveStored(batch)
        harness.run()
        #expect(harness.publishedSeqs == (mode == .shared ? [1] : []))
        harness.move("c2")
        harness.run()
        #expect(harness.replies("c2") == [.accepted(id: "c2", seq: mode == .shared ? 2 : 1)])
    }

    @Test("shared: a conflict catches up, shows the other node's batch, and stores the same command after it")
    func conflict() throws {
        let harness = try OwnerHarness(.shared)
        var game = harness.owner.viewModel.game
        let outcome = try game.apply(.move("away-0", .onePoint, id: "r1"), at: OwnerHarness.start)
        try harness.log.appendAsAnotherNode(
            outcome.newEvents.map { JournaledEvent($0, presentationSequence: 1) }, toGame: "g1")
        harness.move("c2")
        harness.run()
        #expect(harness.replies("c2") == [.accepted(id: "c2", seq: 2)])
        #expect(harness.publishedSeqs == [1, 2])
        #expect(try harness.storedEvents().map(\.presentationSequence) == [1, 2])
    }

    @Test("shared: a batch that does not follow what the node holds is a gap: it catches up from the log")
    func gap() throws {
        let harness = try OwnerHarness(.shared)
        var game = harness.owner.viewModel.game
        let first = try game.apply(.move("away-0", .onePoint, id: "r1"), at: OwnerHarness.start).newEvents
        let second = try game.apply(.move("away-0", .onePoint, id: "r2"), at: OwnerHarness.start).newEvents
        try harness.log.appendAsAnotherNode(first.map { JournaledEvent($0, presentationSequence: 1) }, toGame: "g1")
        let later = second.map { JournaledEvent($0, presentationSequence: 2) }
        try harness.log.appendAsAnotherNode(later, toGame: "g1")
        harness.owner.receiveStored(later)
        #expect(harness.publishedSeqs.isEmpty, "not applied across the gap")
        harness.run()
        #expect(harness.publishedSeqs == [1, 2])
    }

    @Test("shared: an unreachable log answers the work and what waits behind it, and catches up later")
    func unreachable() throws {
        let harness = try OwnerHarness(.shared)
        harness.log.failNextWrites(.unavailable(reason: "test"))
        harness.log.failNextReads(.unavailable(reason: "test"))
        harness.move("c1")
        harness.move("c2")
        harness.run()
        // c1's append failed; c2 waited for the catch-up before it, which failed too: both answered.
        #expect(harness.replies("c1").map(\.isAccepted) == [false])
        #expect(harness.replies("c2").map(\.isAccepted) == [false])
        harness.advance(by: 1_000)
        harness.move("c2")
        harness.run()
        #expect(harness.replies("c2").last == .accepted(id: "c2", seq: 1))
    }
}

extension CommandReply {
    var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }

    var errorCode: WireErrorCode? {
        if case .rejected(_, let failure) = self { return failure.code }
        return nil
    }
}
