/// The figures of one `courtside-load relay` run: the catch-up (``RelayCatchUp``) and the live phase (a
/// ``TapReport`` whose spectator class is "venue ack to public screen"), as text or JSON.
struct RelayReport: RunReport, Sendable, Encodable {
    var venue: String
    var publicNode: String
    var backlog: Int
    var catchUp: RelayCatchUp
    var live: TapReport?
    var liveFailure: String?
    var failures: [String: Int] { live?.failures ?? [:] }
    var failureExamples: [String] { live?.failureExamples ?? [] }

    private enum CodingKeys: String, CodingKey {
        case venue, publicNode, backlog, catchUp, live, liveFailure
    }

    init(options: RelayOptions, catchUp: RelayCatchUp) {
        venue = "ws://" + options.venue.hostHeader
        publicNode = "ws://" + options.publicNode.hostHeader
        backlog = options.backlog
        self.catchUp = catchUp
    }

    /// Every backlog command acked and relayed; the live phase (when run) whole.
    var succeeded: Bool {
        catchUp.succeeded && liveFailure == nil && (live?.succeeded ?? true)
    }

    var text: String {
        func seconds(_ value: Double?) -> String { value.map { format($0, 3) + " s" } ?? "-" }
        var lines = [
            "courtside-load relay: venue \(venue) → public \(publicNode)",
            "catch-up: a backlog of \(backlog) commands over \(catchUp.games) games, written with the link down",
            "  backlog      \(catchUp.commandsSent) sent, \(catchUp.commandsAcked) acked in \(format(catchUp.backlogSeconds, 3)) s"
                + " (ack p50 \(format(catchUp.backlogAckP50Ms, 3)) ms, p99 \(format(catchUp.backlogAckP99Ms, 3)) ms)"
                + (catchUp.refused.isEmpty
                    ? ""
                    : ", refused "
                        + catchUp.refused.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                            separator: ", ")),
            "  link back    the venue reconnected after \(seconds(catchUp.reconnectSeconds)) (its backoff),"
                + " \(catchUp.linkConnections) connection(s), \(catchUp.bytesUp) bytes up, \(catchUp.bytesDown) down",
            "  caught up    \(catchUp.gamesCaughtUp)/\(catchUp.games) games, \(catchUp.lastSeqs) seqs in all:"
                + " \(seconds(catchUp.catchUpSeconds)) from the venue's connection"
                + " (first game \(seconds(catchUp.firstGameSeconds)), median \(seconds(catchUp.medianGameSeconds))),"
                + " \(seconds(catchUp.linkReturnToCaughtUpSeconds)) from the link's return;"
                + " \(catchUp.commandsPerSecond.map { format($0, 0) } ?? "-") commands/s; \(catchUp.polls) polls",
        ]
        for (name, use) in catchUp.nodes.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "  \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) over the catch-up: CPU \(seconds(use.cpuSeconds)),"
                    + " waiting for a core \(seconds(use.runQueueWaitSeconds))")
        }
        lines += catchUp.behind.map { "  behind       \($0)" }
        lines += catchUp.scorerFailures.prefix(5).map { "  scorer failed: \($0)" }
        lines.append("")
        if let live {
            lines.append("live: per patch, from the venue's ack at the scorer to its arrival at a public spectator")
            lines.append(live.text)
        } else if let liveFailure {
            lines.append("live: not measured: \(liveFailure)")
        } else {
            lines.append("live: skipped (--live-duration 0)")
        }
        return lines.joined(separator: "\n")
    }
}
