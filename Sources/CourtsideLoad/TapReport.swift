/// The figures of one `courtside-load taptoscreen` run: per class (ack; each spectator class), the samples and
/// p50/p99/p99.9/max in milliseconds, each p99 beside the limit (store commit p99 + bare fan-out p99) and the
/// ratio; then the counts that say whether the run was whole. As a table or as JSON.
struct TapReport: RunReport, Sendable, Encodable {
    struct ClassFigures: Sendable, Encodable, Equatable {
        var name: String
        var samples: Int
        var p50Ms: Double
        var p99Ms: Double
        var p999Ms: Double
        var maxMs: Double
        /// This class's p99 over the limit (store commit p99 + bare fan-out p99), when both were measured.
        var p99OverLimit: Double?
    }

    var url: String
    var nodes: Int
    var games: Int
    var spectatorsPerGame: Int
    var bigGames: Int
    var bigSpectators: Int
    var spectators: Int
    var spectatorsConnected: Int
    var deflateAgreed: Int
    var durationSeconds: Double
    var speed: Double
    var commandsSent: Int
    var commandsAcked: Int
    var unexpectedAcks: Int
    var refused: [String: Int]
    var scorerFailures: [String]
    var classes: [ClassFigures]
    /// Patches lost: skipped (a gap in `seq`) or still missing at the end, across every spectator.
    var lostPatches: Int
    var unmatchedPatches: Int
    var droppedArrivals: Int
    var decodeErrors: Int
    /// A relay run: patches stamped before their command's ack was (counted as 0 ms).
    var patchesBeforeAck: Int
    var limit: TapLimit
    var limitP99Ms: Double?
    var failures: [String: Int]
    var failureExamples: [String]

    init(options: TapOptions, figures: TapFigures, limit: TapLimit) {
        let origin = options.nodes[0]
        url = (origin.tls ? "wss://" : "ws://") + origin.target.hostHeader
        nodes = options.nodes.count
        games = options.games
        spectatorsPerGame = options.spectators
        bigGames = options.bigGames
        bigSpectators = options.bigSpectators
        spectators = options.totalSpectators
        spectatorsConnected = figures.spectatorsConnected
        deflateAgreed = figures.deflateAgreed
        durationSeconds = options.duration
        speed = options.speed
        commandsSent = figures.commandsSent
        commandsAcked = figures.commandsAcked
        unexpectedAcks = figures.unexpectedAcks
        refused = figures.refused
        scorerFailures = figures.scorerFailures
        self.limit = limit
        limitP99Ms = limit.sumP99Ms
        classes = Self.classes(figures, limitP99Ms: limit.sumP99Ms)
        lostPatches = figures.lost
        unmatchedPatches = figures.unmatched
        droppedArrivals = figures.dropped
        decodeErrors = figures.decodeErrors
        patchesBeforeAck = figures.beforeAck
        failures = figures.spectatorFailures.byCategory
        failureExamples = figures.spectatorFailures.examples
    }

    /// One row per class, in the classes' order (ack first); a class with no sample shows zeros.
    static func classes(_ figures: TapFigures, limitP99Ms: Double?) -> [ClassFigures] {
        zip(figures.classNames, figures.latencies).map { name, histogram in
            func ms(_ nanoseconds: UInt64) -> Double { (Double(nanoseconds) / 1_000).rounded() / 1_000 }
            let p99 = ms(histogram.percentile(0.99))
            return ClassFigures(
                name: name, samples: Int(histogram.count), p50Ms: ms(histogram.percentile(0.5)), p99Ms: p99,
                p999Ms: ms(histogram.percentile(0.999)), maxMs: ms(histogram.count == 0 ? 0 : histogram.maximum),
                p99OverLimit: limitP99Ms.flatMap {
                    $0 > 0 && histogram.count > 0 ? (p99 / $0 * 100).rounded() / 100 : nil
                })
        }
    }

    /// Every spectator connected and has every acked patch, every command was acked, and every class has samples.
    var succeeded: Bool {
        spectatorsConnected == spectators && failures.isEmpty && scorerFailures.isEmpty && commandsSent > 0
            && commandsAcked == commandsSent && lostPatches == 0 && unmatchedPatches == 0 && decodeErrors == 0
            && classes.allSatisfy { $0.samples > 0 }
    }

    var text: String {
        var lines = [
            "courtside-load taptoscreen \(url) (\(nodes) node(s)): \(games) games × \(spectatorsPerGame) spectators"
                + (bigGames > 0 ? " + \(bigGames) × \(bigSpectators)" : "") + ", \(format(durationSeconds, 0)) s"
                + " at \(format(speed, 1))× a scorer's pace",
            "  spectators   \(spectatorsConnected)/\(spectators) connected, deflate agreed by \(deflateAgreed)",
            "  commands     \(commandsSent) sent, \(commandsAcked) acked"
                + (refused.isEmpty
                    ? ""
                    : ", refused \(refused.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"),
            "  patches      lost \(lostPatches), unmatched \(unmatchedPatches), decode errors \(decodeErrors)"
                + (droppedArrivals > 0 ? ", \(droppedArrivals) arrivals not stamped (memory bound)" : "")
                + (patchesBeforeAck > 0 ? ", \(patchesBeforeAck) stamped before their ack (counted as 0)" : ""),
            "",
            "  class                              samples    p50 ms    p99 ms  p99.9 ms    max ms   limit ms  p99/limit",
        ]
        for row in classes {
            lines.append(
                "  " + row.name.padding(toLength: 32, withPad: " ", startingAt: 0)
                    + [
                        String(row.samples).leftPadded(9), format(row.p50Ms, 3).leftPadded(10),
                        format(row.p99Ms, 3).leftPadded(10), format(row.p999Ms, 3).leftPadded(10),
                        format(row.maxMs, 3).leftPadded(10), (limitP99Ms.map { format($0, 3) } ?? "-").leftPadded(11),
                        (row.p99OverLimit.map { format($0, 2) } ?? "-").leftPadded(11),
                    ].joined())
        }
        let commits = limit.commitP99Ms.sorted { $0.key < $1.key }.map {
            "\($0.key) commit p99 \(format($0.value, 3)) ms (\(limit.commitSamples[$0.key] ?? 0) appends)"
        }
        let fanout = limit.fanoutP99Ms.map {
            "bare fan-out p99 \(format($0, 3)) ms (\(limit.fanoutSubscribers ?? 0) subscribers, \(limit.fanoutDelivered ?? 0) deliveries)"
        }
        lines.append("")
        lines.append(
            "  limit        "
                + ((commits + [fanout].compactMap { $0 }).joined(separator: "; ").nonEmpty ?? "not measured"))
        lines += limit.problems.map { "  limit problem: \($0)" }
        lines += scorerFailures.prefix(5).map { "  scorer failed: \($0)" }
        lines += failureLines
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }

    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
