import Testing

@testable import CourtsideNet

private let t0 = ContinuousClock.now

/// The transport's write-progress deadline and close linger as traces, time injected (the loopback version is
/// `WriteTimeoutTests`).
@Suite("Transport deadlines")
struct TransportDeadlinesTests {
    static func deadlines() -> TransportDeadlines {
        TransportDeadlines(writeTimeout: .seconds(30), lingerTimeout: .seconds(2))
    }

    @Test("queued bytes that make no progress for the write timeout reset the connection")
    func stalled() {
        var deadlines = Self.deadlines()
        #expect(deadlines.flushed(progressed: true, drained: false, now: t0) == [.scheduleTimer(t0 + .seconds(30))])
        #expect(deadlines.flushed(progressed: false, drained: false, now: t0 + .seconds(10)) == [])
        #expect(deadlines.timerFired(now: t0 + .seconds(30)) == [.abortWriteTimedOut])
    }

    @Test("progress moves the deadline without a timer operation per write; the armed timer re-arms")
    func progress() {
        var deadlines = Self.deadlines()
        _ = deadlines.flushed(progressed: false, drained: false, now: t0)
        #expect(deadlines.flushed(progressed: true, drained: false, now: t0 + .seconds(20)) == [])
        #expect(deadlines.timerFired(now: t0 + .seconds(30)) == [.scheduleTimer(t0 + .seconds(50))])
        #expect(deadlines.timerFired(now: t0 + .seconds(50)) == [.abortWriteTimedOut])
    }

    @Test("a drained queue has no deadline: the timer that was armed finds nothing due")
    func drained() {
        var deadlines = Self.deadlines()
        _ = deadlines.flushed(progressed: false, drained: false, now: t0)
        #expect(deadlines.flushed(progressed: true, drained: true, now: t0 + .seconds(1)) == [])
        #expect(deadlines.nextDeadline == nil)
        #expect(deadlines.timerFired(now: t0 + .seconds(30)) == [])
    }

    @Test("closing: the linger starts when our FIN goes out and ends in a close; a stalled close is still reset")
    func closing() {
        var lingering = Self.deadlines()
        #expect(lingering.writeSideShutDown(now: t0) == [.scheduleTimer(t0 + .seconds(2))])
        #expect(lingering.timerFired(now: t0 + .seconds(2)) == [.close])

        // A closing connection whose last answers are never read: its FIN never goes out, so no linger starts, and
        // only the write deadline ends it (before it did, such a client was held 70 s and more).
        var stalledClose = Self.deadlines()
        _ = stalledClose.flushed(progressed: false, drained: false, now: t0)
        #expect(stalledClose.lingerDeadline == nil)
        #expect(stalledClose.timerFired(now: t0 + .seconds(30)) == [.abortWriteTimedOut])
    }
}
