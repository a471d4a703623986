import CourtsideJournal
import CourtsideModel
import CourtsideViewModels
import Testing

@testable import Courtside

/// `GameOwner` itself, the shell around the machine: what it performs and when.
@Suite("Game owner shell")
struct GameOwnerShellTests {
    typealias Mode = OwnerHarness.Mode

    @Test("a running clock arms one timer; stop cancels every timer", arguments: Mode.allCases)
    func stopCancelsTimers(mode: Mode) throws {
        let harness = try OwnerHarness(mode, rules: .fiba3x3)
        #expect(harness.scheduler.scheduledTimerCount == 0, "a stopped clock has no deadline")
        harness.send(#"{"type":"clock","id":"s1","action":"start"}"#, key: "s1")
        harness.run()
        #expect(harness.scheduler.scheduledTimerCount == 1)
        harness.owner.stop()
        #expect(harness.scheduler.scheduledTimerCount == 0)
    }

    @Test("replies go in command order: a malformed command waits behind the write before it", arguments: Mode.allCases)
    func repliesInOrder(mode: Mode) throws {
        let harness = try OwnerHarness(mode)
        harness.move("c1")
        harness.send(#"{"type":"jump","id":"x1"}"#, key: "x1")
        #expect(harness.replies("x1").isEmpty, "not before c1's ack")
        harness.run()
        #expect(harness.replies("c1") == [.accepted(id: "c1", seq: 1)])
        #expect(harness.replies("x1").first?.errorCode != nil)
        let order = harness.log.writes.map { write in
            if case .appendEvents(let events, _) = write { return "events@\(events[0].presentationSequence)" }
            return "other"
        }
        #expect(order == ["events@1"], "a malformed command stores nothing")
    }

    @Test("a journal completion is performed on the owner's scheduler, never on the journal's thread")
    func completionsHop() throws {
        let harness = try OwnerHarness(.local)
        harness.move("c1")
        // The in-memory journal completed inline; the owner has not seen it until its scheduler runs the task.
        #expect(harness.replies("c1").isEmpty)
        #expect(harness.run() == 1)
        #expect(harness.replies("c1") == [.accepted(id: "c1", seq: 1)])
    }
}
