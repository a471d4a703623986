import Testing

@testable import CourtsideLoad

/// `courtside-load taptoscreen`'s side table: command index → send time, ack → document `seq` → send time.
@Suite("courtside-load taptoscreen: the side table")
struct TapSideTableTests {
    @Test("each command's index is its position; its ack gives the ack latency and maps the seq to its send time")
    func sendAckLookup() {
        var table = TapSideTable()
        #expect(table.sent(at: 1_000) == 0)
        #expect(table.sent(at: 1_500) == 1)
        #expect(table.unacked == 2)
        #expect(table.sendTime(ofDocument: 7) == nil, "nothing acked yet")
        #expect(table.acked(command: 1, seq: 8, at: 2_000) == 500)
        #expect(table.acked(command: 0, seq: 7, at: 2_100) == 1_100)
        #expect(table.sendTime(ofDocument: 7) == 1_000)
        #expect(table.sendTime(ofDocument: 8) == 1_500)
        #expect(table.unacked == 0)
        #expect(table.lastAckedSeq == 8)
        #expect(table.unexpectedAcks == 0)
    }

    @Test("a second ack of one command, or an ack of a command never sent, is counted and changes nothing")
    func unexpectedAcks() {
        var table = TapSideTable()
        _ = table.sent(at: 10)
        #expect(table.acked(command: 0, seq: 3, at: 20) == 10)
        #expect(table.acked(command: 0, seq: 4, at: 30) == nil)
        #expect(table.acked(command: 5, seq: 5, at: 30) == nil)
        #expect(table.acked(command: -1, seq: 5, at: 30) == nil)
        #expect(table.unexpectedAcks == 3)
        #expect(table.acked == 1)
        #expect(table.lastAckedSeq == 3)
        #expect(table.sendTime(ofDocument: 4) == nil)
    }

    @Test("two commands acked with one seq (the second changed nothing): the patch belongs to the first")
    func sharedSeq() {
        var table = TapSideTable()
        _ = table.sent(at: 100)
        _ = table.sent(at: 200)
        _ = table.acked(command: 0, seq: 4, at: 300)
        _ = table.acked(command: 1, seq: 4, at: 310)
        #expect(table.sendTime(ofDocument: 4) == 100)
        #expect(table.ackTime(ofDocument: 4) == 300, "a relay run's latency starts at the first command's ack")
        #expect(table.ackTime(ofDocument: 5) == nil)
    }

    @Test("a relay run: a patch's latency runs from its command's ack; one stamped before the ack counts as 0")
    func latencyFromAck() {
        var table = TapSideTable()
        _ = table.sent(at: 1_000)
        _ = table.sent(at: 2_000)
        _ = table.acked(command: 0, seq: 1, at: 1_400)
        _ = table.acked(command: 1, seq: 2, at: 2_600)
        var loop = TapRun.LoopResult(tally: TapLoopTally())
        loop.tally.record(TapArrival(game: 0, seq: 1, classIndex: 1, at: 1_900))
        loop.tally.record(TapArrival(game: 0, seq: 2, classIndex: 1, at: 2_500))
        var fromAck = TapFigures(classNames: ["ack", "venue ack to public screen"], fromAck: true)
        fromAck.add(loop: loop, tables: [table])
        #expect(fromAck.latencies[1].count == 2)
        #expect(fromAck.latencies[1].maximum == 500, "1,900 − the ack at 1,400")
        #expect(fromAck.latencies[1].minimum == 0, "stamped before its ack at 2,600")
        #expect(fromAck.beforeAck == 1)
        var fromSend = TapFigures(classNames: ["ack", "screen plain"])
        fromSend.add(loop: loop, tables: [table])
        #expect(fromSend.latencies[1].maximum == 900)
        #expect(fromSend.latencies[1].minimum == 500)
        #expect(fromSend.beforeAck == 0)
    }
}

/// The percentiles every report prints (`LatencyHistogram`).
@Suite("courtside-load: percentiles")
struct LatencyHistogramTests {
    @Test("p50, p99 and p99.9 of 1…100,000 µs within 1/64 of the true value; max exact; empty is zero")
    func percentiles() {
        var histogram = LatencyHistogram()
        #expect(histogram.percentile(0.99) == 0)
        for value in 1...100_000 { histogram.record(UInt64(value) * 1_000) }
        for (fraction, truth) in [(0.5, 50_000_000.0), (0.99, 99_000_000.0), (0.999, 99_900_000.0)] {
            let value = Double(histogram.percentile(fraction))
            #expect(abs(value - truth) / truth <= 1.0 / 64, "p\(fraction * 100): \(value) for \(truth)")
        }
        #expect(histogram.percentile(1) == 100_000_000)
        #expect(histogram.maximum == 100_000_000)
        #expect(histogram.count == 100_000)
    }

    @Test("one slow sample in a hundred sets p99 below it and p99.9 at it; merging adds the counts")
    func tailAndMerge() {
        var fast = LatencyHistogram()
        for _ in 0..<999 { fast.record(1_000) }
        var slow = LatencyHistogram()
        slow.record(50_000_000)
        fast.merge(slow)
        #expect(fast.count == 1_000)
        #expect(fast.percentile(0.99) <= 1_016)
        #expect(fast.percentile(0.999) <= 1_016, "the 999th of 1,000 samples is still fast")
        #expect(fast.percentile(0.9995) == 50_000_000)
        #expect(fast.maximum == 50_000_000)
    }
}
