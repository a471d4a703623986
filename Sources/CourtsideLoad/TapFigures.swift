/// The counts and latencies of a `courtside-load taptoscreen` run, by class: the scorers' acks, and each
/// spectator class's patches, joined with the side tables (arrival − the send time of the command whose ack named
/// the patch's `seq`, or the ack's arrival in a relay run).
struct TapFigures: Sendable {
    var classNames: [String]
    var latencies: [LatencyHistogram]
    var commandsSent = 0
    var commandsAcked = 0
    var unexpectedAcks = 0
    var refused: [String: Int] = [:]
    var scorerFailures: [String] = []
    var spectatorsConnected = 0
    var deflateAgreed = 0
    /// Patches received whose `seq` no acked command named (none expected: only our scorers change the games).
    var unmatched = 0
    /// Patches a spectator skipped (a gap in `seq`) or never received by the end.
    var gaps = 0
    var missing = 0
    var dropped = 0
    var decodeErrors = 0
    var spectatorFailures = FailureCounts()
    /// Each patch's latency counts from its command's ack (a relay run) instead of its send.
    var fromAck = false
    /// With `fromAck`: patches stamped before their ack was (the scorer's thread read it late); counted as 0.
    var beforeAck = 0

    init(classNames: [String], fromAck: Bool = false) {
        self.classNames = classNames
        self.fromAck = fromAck
        latencies = Array(repeating: LatencyHistogram(), count: classNames.count)
    }

    mutating func add(scorer result: TapScorer.Result) {
        latencies[0].merge(result.ackLatency)
        commandsSent += result.table.sentAt.count
        commandsAcked += result.table.acked
        unexpectedAcks += result.table.unexpectedAcks
        refused.merge(result.refused, uniquingKeysWith: +)
        if let failure = result.failure { scorerFailures.append(failure) }
    }

    mutating func add(loop result: TapRun.LoopResult, tables: [TapSideTable]) {
        for arrival in result.tally.arrivals {
            let table = Int(arrival.game) < tables.count ? tables[Int(arrival.game)] : nil
            let seq = Int(arrival.seq)
            guard let from = fromAck ? table?.ackTime(ofDocument: seq) : table?.sendTime(ofDocument: seq) else {
                unmatched += 1
                continue
            }
            if arrival.at < from { beforeAck += 1 }
            latencies[Int(arrival.classIndex)].record(arrival.at > from ? arrival.at - from : 0)
        }
        spectatorsConnected += result.tally.upgraded
        deflateAgreed += result.tally.deflateAgreed
        gaps += result.tally.gaps
        missing += result.missing
        dropped += result.tally.dropped
        decodeErrors += result.tally.decodeErrors
        spectatorFailures.merge(result.tally.failures)
    }

    /// Patches lost: skipped midway or missing at the end.
    var lost: Int { gaps + missing }
}
