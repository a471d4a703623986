import Testing

@testable import Courtside

/// `SharedWriteState` as traces: work in, actions out, no journal, no loop.
@Suite("Shared write state: conflicts, catch-up, unreachable store")
struct SharedWriteStateTests {
    typealias State = SharedWriteState<String>

    /// The actions as short strings, for readable traces.
    private static func describe(_ actions: [State.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .perform(let work): "perform \(work)"
            case .catchUp: "catch up"
            case .refuse(let work, let refusal): "refuse \(work) \(refusal)"
            }
        }
    }

    @Test("one work in flight; the rest wait in order and start as each finishes; a full queue refuses")
    func queueing() {
        var state = State(maxWaiting: 2)
        #expect(Self.describe(state.arrived("c1")) == ["perform c1"])
        #expect(Self.describe(state.arrived("c2")).isEmpty)
        #expect(Self.describe(state.arrived("c3")).isEmpty)
        #expect(Self.describe(state.arrived("c4")) == ["refuse c4 queueFull"])
        #expect(Self.describe(state.appendSucceeded()) == ["perform c2"])
        #expect(Self.describe(state.finished()) == ["perform c3"])
        #expect(Self.describe(state.appendSucceeded()).isEmpty)
        #expect(state.isIdle)
    }

    @Test("a conflict catches up, then performs the same work again; it is never answered by the conflict")
    func conflictThenRetry() {
        var state = State(maxWaiting: 8)
        _ = state.arrived("c1")
        _ = state.arrived("c2")
        #expect(Self.describe(state.appendConflicted()) == ["catch up"])
        #expect(Self.describe(state.caughtUp(progressed: true)) == ["perform c1"])
        #expect(Self.describe(state.appendConflicted()) == ["catch up"])
        #expect(Self.describe(state.caughtUp(progressed: true)) == ["perform c1"])
        #expect(Self.describe(state.appendSucceeded()) == ["perform c2"])
    }

    @Test("conflicts that catching up cannot resolve refuse the work after three, then the next goes on")
    func fruitlessConflicts() {
        var state = State(maxWaiting: 8)
        _ = state.arrived("c1")
        _ = state.arrived("c2")
        _ = state.appendConflicted()
        _ = state.caughtUp(progressed: false)
        _ = state.appendConflicted()
        _ = state.caughtUp(progressed: false)
        _ = state.appendConflicted()
        _ = state.caughtUp(progressed: false)
        // The next conflict is the third without progress: c1 is refused, and c2 catches up first (behind).
        #expect(Self.describe(state.appendConflicted()) == ["refuse c1 contended", "catch up"])
        #expect(Self.describe(state.caughtUp(progressed: true)) == ["perform c2"])
    }

    @Test("an unreachable store refuses the work; the next append is preceded by a catch-up (it may be stored)")
    func unreachable() {
        var state = State(maxWaiting: 8)
        _ = state.arrived("c1")
        // Behind with nothing queued: catch up at once (the append may be stored; other nodes' batches may wait).
        #expect(Self.describe(state.appendFailed()) == ["catch up"])
        #expect(state.isBehind)
        #expect(Self.describe(state.arrived("c1")).isEmpty, "waits for the catch-up")
        _ = state.arrived("c2")
        // Still unreachable: the work and everything queued behind it are answered, none left waiting.
        #expect(Self.describe(state.catchUpFailed()) == ["refuse c1 unreachable", "refuse c2 unreachable"])
        #expect(state.isIdle && state.isBehind)
        // Back: the retried id catches up first, then is performed (the owner then answers a stored one as a repeat).
        #expect(Self.describe(state.arrived("c1")) == ["catch up"])
        #expect(Self.describe(state.caughtUp(progressed: true)) == ["perform c1"])
        #expect(!state.isBehind)
    }

    @Test("a gap seen while idle catches up at once; while appending, before the next work")
    func gaps() {
        var state = State(maxWaiting: 8)
        #expect(Self.describe(state.gapSeen()) == ["catch up"])
        #expect(Self.describe(state.arrived("c1")).isEmpty, "waits for the catch-up")
        #expect(Self.describe(state.caughtUp(progressed: true)) == ["perform c1"])
        #expect(Self.describe(state.gapSeen()).isEmpty)
        #expect(Self.describe(state.arrived("c2")).isEmpty)
        #expect(Self.describe(state.appendSucceeded()) == ["catch up"])
        #expect(Self.describe(state.caughtUp(progressed: true)) == ["perform c2"])
        // A gap while the last work is in flight: caught up right after it, with nothing queued.
        #expect(Self.describe(state.gapSeen()).isEmpty)
        #expect(Self.describe(state.appendSucceeded()) == ["catch up"])
        #expect(Self.describe(state.caughtUp(progressed: true)).isEmpty)
        #expect(state.isIdle && !state.isBehind)
    }
}
