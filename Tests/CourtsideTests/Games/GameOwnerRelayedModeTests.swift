import CourtsideJournal
import CourtsideModel
import CourtsideViewModels
import Testing

@testable import Courtside

/// `GameOwnerStateMachine`'s relayed mode (a game a venue node relays here: docs/relay.md) as traces: it refuses
/// every command naming the venue, arms no tick however near the model's deadline, writes nothing, and applies the
/// relay's stored batches whole, in order, as shared mode applies another node's.
@Suite("Game owner state machine: relayed mode")
struct GameOwnerRelayedModeTests {
    typealias Traces = GameOwnerStateMachineTests

    static func relayed(nextDeadline: Timestamp? = nil) -> GameOwnerStateMachine {
        GameOwnerStateMachine(
            gameID: "v1.g1", mode: .relayed(venue: "v1"),
            view: GameOwnerView(seq: 0, heldEvents: 0, nextDeadline: nextDeadline), isArchived: false,
            restoredAcks: [:], limits: GameLimits(resumeWindow: 8))
    }

    @Test("every command is refused relayed_game, naming the venue, and nothing is written")
    func refusesCommands() {
        var machine = Self.relayed()
        let actions = machine.arrived(Traces.request("c1"))
        #expect(Traces.describe(actions) == ["answer c1 relayed_game"])
        if case .answer(_, .rejected(_, let failure)) = actions.first {
            #expect(failure.message.contains("v1"))
        }
        #expect(Traces.describe(machine.journalCompleted(.success(()))).isEmpty)
    }

    @Test("no tick is armed, even with a deadline in the view, and a stray tick does nothing")
    func noTimers() {
        var machine = Self.relayed(nextDeadline: Timestamp(milliseconds: 5_000))
        #expect(Traces.describe(machine.started()).isEmpty)
        #expect(Traces.describe(machine.timerFired(.tick)).isEmpty)
        _ = machine.storedShown(
            Traces.effects(events: [], seq: 1, reply: nil),
            view: GameOwnerView(seq: 1, heldEvents: 1, nextDeadline: Timestamp(milliseconds: 9_000)))
        #expect(machine.armedTick == nil)
    }

    @Test("stored batches are shown whole per presentation seq, held ones skipped, a gap caught up from the log")
    func appliesBatches() {
        var machine = Self.relayed()
        let batch = [
            JournaledEvent(Traces.event(1), presentationSequence: 1),
            JournaledEvent(Traces.event(2), presentationSequence: 2),
            JournaledEvent(Traces.event(3), presentationSequence: 2),
        ]
        #expect(Traces.describe(machine.remoteBatch(batch)) == ["show stored 1", "show stored 2"])
        #expect(
            Traces.describe(
                machine.storedShown(
                    Traces.effects(events: [], seq: 2, reply: nil),
                    view: GameOwnerView(seq: 2, heldEvents: 3, nextDeadline: nil)))
                == ["publish 2", "serve joiners"])
        #expect(Traces.describe(machine.remoteBatch(batch)).isEmpty, "held already")
        // A batch this node stored after a gap (the venue moved here before the feed brought the last batches the
        // other node stored): the log is read after what is held, and what it holds is shown in order.
        let gap = [JournaledEvent(Traces.event(5), presentationSequence: 4)]
        #expect(Traces.describe(machine.remoteBatch(gap)) == ["catch up"])
        let log = [JournaledEvent(Traces.event(4), presentationSequence: 3)] + gap
        #expect(Traces.describe(machine.caughtUp(.success(log))) == ["show stored 3", "show stored 4"])
        #expect(Traces.describe(machine.caughtUp(.failure(.unavailable(reason: "down")))).isEmpty)
    }
}
