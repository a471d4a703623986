import Testing

@testable import Courtside

/// `DemoLease` as traces: answers and timer checks in, start/stop out.
@Suite("Demo lease")
struct DemoLeaseTests {
    private let start = ContinuousClock.now

    @Test("taken: start; renewed: nothing; refused: stop")
    func takeRenewLose() {
        var lease = DemoLease(duration: .seconds(10))
        #expect(lease.answered(held: false, sentAt: start) == .none)
        #expect(lease.answered(held: true, sentAt: start) == .start)
        #expect(lease.answered(held: true, sentAt: start + .seconds(3)) == .none)
        #expect(lease.heldUntil == start + .seconds(13), "counted from the request, not the answer")
        #expect(lease.answered(held: false, sentAt: start + .seconds(6)) == .stop)
        #expect(!lease.isHeld)
    }

    @Test("no renewal before the lease's end (Redis unreachable): stop at the end, not before")
    func lapse() {
        var lease = DemoLease(duration: .seconds(10))
        _ = lease.answered(held: true, sentAt: start)
        #expect(lease.check(at: start + .seconds(9)) == .none)
        #expect(lease.check(at: start + .seconds(10)) == .stop)
        #expect(lease.check(at: start + .seconds(11)) == .none, "stopped once")
        #expect(lease.answered(held: true, sentAt: start + .seconds(12)) == .start, "taken again when back")
    }
}
