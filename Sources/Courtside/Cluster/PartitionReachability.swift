/// Whether this node reaches the Redis partitions as well as the other nodes do, as `/healthz` reports it
/// (docs/cluster.md, "Past one Redis"): a value type fed each probe's outcome and the other nodes' reports, asked
/// with the current instant.
///
/// A partition silent for `threshold` (`StoreReachability`) is either down for everyone (its games answer
/// `unavailable`, the others go on, and draining this node would help nobody) or cut off from this node only (the
/// balancer should send its clients elsewhere). The other nodes' reports tell which: read from a partition this
/// node still reaches (`courtside_reach`), each says how long ago any other live node last reached each partition.
/// This node is at fault for partition P when another node reached P at least `margin` more recently than this node
/// did; when P died for everyone, every node lost it within about one probe interval of the others, well under the
/// margin. With no report to go by (one partition only, or every partition silent) the node cannot tell, and counts
/// itself at fault, as a single Redis always did.
struct PartitionReachability {
    /// The verdict for `/healthz`.
    enum Verdict: Equatable {
        /// Every partition answers.
        case reachable
        /// These partitions are silent for every node: their games answer `unavailable`; the node stays healthy.
        case downForEveryone([Int: Duration])
        /// This node does not reach these partitions (silent this long) while others do, or it cannot tell.
        case cutOff([Int: Duration])
    }

    /// What another node's exchange answered, read from one partition.
    private struct Report {
        /// Per partition, how long before `receivedAt` another node last reached it.
        var others: [Int: Duration]
        var receivedAt: ContinuousClock.Instant
    }

    private(set) var partitions: [StoreReachability]
    /// The latest report read from each partition, by index.
    private var reports: [Int: Report] = [:]
    /// How much more recently another node must have reached a partition for this node to be at fault.
    let margin: Duration
    /// How long a report counts: the reach records expire after this too (`courtside_reach`'s ttl).
    let reportLifetime: Duration

    init(
        count: Int, threshold: Duration = .seconds(2), margin: Duration = .milliseconds(1500),
        reportLifetime: Duration = .seconds(3), start: ContinuousClock.Instant
    ) {
        partitions = Array(repeating: StoreReachability(threshold: threshold, start: start), count: count)
        self.margin = margin
        self.reportLifetime = reportLifetime
    }

    /// The probe timer fired for `partition`: whether to send it a probe now.
    mutating func timerFired(partition: Int) -> Bool {
        partitions[partition].timerFired()
    }

    mutating func probeAnswered(partition: Int, success: Bool, at instant: ContinuousClock.Instant) {
        partitions[partition].probeAnswered(success: success, at: instant)
    }

    /// Partition `source` answered an exchange: per partition, how long ago another node last reached it.
    mutating func reportArrived(from source: Int, others: [Int: Duration], at instant: ContinuousClock.Instant) {
        reports[source] = Report(others: others, receivedAt: instant)
    }

    /// What this node publishes: per partition, how long since it last reached it.
    func ages(at now: ContinuousClock.Instant) -> [Int: Duration] {
        var ages: [Int: Duration] = [:]
        for (index, partition) in partitions.enumerated() { ages[index] = max(now - partition.lastSuccess, .zero) }
        return ages
    }

    /// The partitions to exchange reports with: those this node reaches now.
    func reachable(at now: ContinuousClock.Instant) -> [Int] {
        partitions.indices.filter { partitions[$0].unreachableFor(at: now) == nil }
    }

    func verdict(at now: ContinuousClock.Instant) -> Verdict {
        var silent: [Int: Duration] = [:]
        for (index, partition) in partitions.enumerated() {
            if let duration = partition.unreachableFor(at: now) { silent[index] = duration }
        }
        if silent.isEmpty { return .reachable }
        // Only a report read from a partition that still answers, and recently, says anything about now.
        let fresh = reports.filter { silent[$0.key] == nil && now - $0.value.receivedAt <= reportLifetime }.values
        if fresh.isEmpty { return .cutOff(silent) }
        var cutOff: [Int: Duration] = [:]
        for (partition, duration) in silent {
            let othersAge = fresh.compactMap { report in report.others[partition].map { $0 + (now - report.receivedAt) }
            }
            .min()
            if let othersAge, duration - othersAge >= margin { cutOff[partition] = duration }
        }
        return cutOff.isEmpty ? .downForEveryone(silent) : .cutOff(cutOff)
    }
}
