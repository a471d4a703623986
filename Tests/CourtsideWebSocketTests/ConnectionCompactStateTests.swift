import Testing

@testable import CourtsideHTTP
@testable import CourtsideWebSocket

/// The machine's state kept small for idle sockets (docs/benchmarks.md, "Idle memory"): compact deadlines and a
/// message in progress held out of line. These check that the compaction changed no behaviour.
@Suite("Connection: compact state")
struct ConnectionCompactStateTests {
    @Test("a compact instant gives back the instant it was made from, orders as instants do, and has a none")
    func compactInstants() {
        let instants = [t0, t0 + .nanoseconds(1), t0 + .seconds(30), t0 - .milliseconds(1_500), t0 + .seconds(86_400)]
        for instant in instants {
            #expect(CompactInstant(instant).instant == instant)
        }
        #expect(CompactInstant(t0) < CompactInstant(t0 + .nanoseconds(1)))
        #expect(CompactInstant(t0 - .seconds(1)) < CompactInstant(t0))
        #expect(CompactInstant(nil as ContinuousClock.Instant?) == .none)
        #expect(CompactInstant.none.instant == nil)
    }

    @Test("a copy of a machine mid-message finishes its own message: the out-of-line part is copied on write")
    func copiedMidMessage() {
        var original = WebSocketConnectionStateMachine(now: t0)
        _ = original.start(now: t0)
        #expect(original.bytesReceived(clientFrame(.text, "shared ", fin: false), now: t0).isEmpty)
        var copy = original
        let fromCopy = copy.bytesReceived(clientFrame(.continuation, "copy"), now: t0)
        let fromOriginal = original.bytesReceived(clientFrame(.continuation, "original"), now: t0)
        #expect(fromCopy.contains(.deliver(.text("shared copy"))))
        #expect(fromOriginal.contains(.deliver(.text("shared original"))))
    }

    @Test("a copy keeps its own UTF-8 offsets: an invalid byte in one copy is reported at that copy's offset")
    func copiedValidationOffsets() {
        var original = WebSocketConnectionStateMachine(now: t0)
        _ = original.start(now: t0)
        _ = original.bytesReceived(clientFrame(.text, "abc", fin: false), now: t0)
        var copy = original
        _ = copy.bytesReceived(clientFrame(.continuation, "defg", fin: false), now: t0)
        let failed = original.bytesReceived(clientFrame(.continuation, [0xFF]), now: t0)
        #expect(failed.contains(.closeTransport(.protocolError(.invalidUTF8(offset: 3)))))
    }

    @Test("an idle machine holds no message state out of line, and stays within its measured size")
    func idleMachineIsSmall() {
        var machine = WebSocketConnectionStateMachine(now: t0)
        _ = machine.start(now: t0)
        _ = machine.timerFired(now: t0 + .seconds(31))  // an idle ping goes out
        _ = machine.bytesReceived(clientFrame(.pong, ""), now: t0 + .seconds(32))
        #expect(machine.messageInProgress == nil)
        // 152 bytes at 82f288a; every byte here is 10 KB per 10,000 idle spectators.
        #expect(MemoryLayout<WebSocketConnectionStateMachine>.size <= 152)
    }
}
