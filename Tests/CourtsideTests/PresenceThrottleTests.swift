import CourtsideModel
import Testing

@testable import Courtside

@Suite("Crew presence: at most one crew message a second per game")
struct PresenceThrottleTests {
    @Test("the first change is sent at once; changes within the second wait for one timer at its end")
    func coalesces() {
        var throttle = PresenceThrottle()
        #expect(throttle.changed(at: Timestamp(milliseconds: 10_000)) == .send)
        #expect(throttle.changed(at: Timestamp(milliseconds: 10_200)) == .armTimer(at: Timestamp(milliseconds: 11_000)))
        #expect(throttle.changed(at: Timestamp(milliseconds: 10_300)) == .wait)
        #expect(throttle.changed(at: Timestamp(milliseconds: 10_999)) == .wait)
        throttle.timerFired(at: Timestamp(milliseconds: 11_000))
        #expect(throttle.changed(at: Timestamp(milliseconds: 11_500)) == .armTimer(at: Timestamp(milliseconds: 12_000)))
        throttle.timerFired(at: Timestamp(milliseconds: 12_000))
        #expect(throttle.changed(at: Timestamp(milliseconds: 13_000)) == .send)
    }
}
