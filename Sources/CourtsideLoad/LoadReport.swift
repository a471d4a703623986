import Foundation

/// The figures of one run, merged over the loops, as text for people or JSON for scripts.
struct LoadReport: Codable, Sendable {
    var url: String
    var clients: Int
    var threads: Int
    var size: Int
    var concurrency: Int
    var messagesPerClient: Int
    var durationLimitSeconds: Double
    var connected: Int
    var completed: Int
    var cleanCloses: Int
    var failed: Int
    var failures: [String: Int]
    var failureExamples: [String]
    var connectSeconds: Double
    var messagesSent: Int
    var roundTrips: UInt64
    /// From the first message sent to the last echo received.
    var elapsedSeconds: Double
    var messagesPerSecond: Double
    var latencyMicroseconds: Latency

    struct Latency: Codable, Sendable {
        var min: Double
        var mean: Double
        var p50: Double
        var p90: Double
        var p99: Double
        var p999: Double
        var max: Double
    }

    init(options: LoadOptions, url: String, results: [LoadThreadResult]) {
        var histogram = LatencyHistogram()
        var failures: [String: Int] = [:]
        for result in results {
            histogram.merge(result.histogram)
            failures.merge(result.failures, uniquingKeysWith: +)
        }
        let started = results.map(\.sendingStarted).min() ?? 0
        let ended = results.map(\.lastEcho).max() ?? 0
        self.url = url
        clients = options.clients
        threads = options.threads
        size = options.size
        concurrency = options.concurrency
        messagesPerClient = options.messagesPerClient
        durationLimitSeconds = options.duration
        connected = results.reduce(0) { $0 + $1.upgraded }
        completed = results.reduce(0) { $0 + $1.completed }
        cleanCloses = results.reduce(0) { $0 + $1.cleanCloses }
        failed = failures.values.reduce(0, +)
        self.failures = failures
        var examples: [String] = []
        for example in results.flatMap(\.failureExamples) where !examples.contains(example) { examples.append(example) }
        failureExamples = Array(examples.prefix(5))
        connectSeconds = Double(results.map(\.connectNanoseconds).max() ?? 0) / 1e9
        messagesSent = results.reduce(0) { $0 + $1.sentMessages }
        roundTrips = histogram.count
        elapsedSeconds = ended > started ? Double(ended - started) / 1e9 : 0
        messagesPerSecond = elapsedSeconds > 0 ? Double(roundTrips) / elapsedSeconds : 0
        func micro(_ nanoseconds: UInt64) -> Double { (Double(nanoseconds) / 1e3 * 10).rounded() / 10 }
        latencyMicroseconds = Latency(
            min: histogram.count == 0 ? 0 : micro(histogram.minimum), mean: (histogram.mean / 1e3 * 10).rounded() / 10,
            p50: micro(histogram.percentile(0.5)), p90: micro(histogram.percentile(0.9)),
            p99: micro(histogram.percentile(0.99)), p999: micro(histogram.percentile(0.999)),
            max: micro(histogram.maximum))
    }

    /// Whether the run counts as a success: every client connected and finished, and echoes came back.
    var succeeded: Bool { failed == 0 && completed == clients && roundTrips > 0 }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    var text: String {
        let latency = latencyMicroseconds
        var lines = [
            "courtside-load \(url)",
            "  clients      \(clients) on \(threads) thread(s), \(size)-byte messages, \(concurrency) in flight each",
            "  connected    \(connected)/\(clients) in \(format(connectSeconds, 2)) s",
            "  round trips  \(roundTrips) of \(messagesSent) sent in \(format(elapsedSeconds, 2)) s"
                + " (limits: \(format(durationLimitSeconds, 1)) s, \(messagesPerClient) per client)",
            "  throughput   \(format(messagesPerSecond, 0)) msg/s",
            "  latency µs   p50 \(format(latency.p50, 1))  p90 \(format(latency.p90, 1))  p99 \(format(latency.p99, 1))"
                + "  p99.9 \(format(latency.p999, 1))  max \(format(latency.max, 1))  (min \(format(latency.min, 1)),"
                + " mean \(format(latency.mean, 1)))",
            "  closed       \(completed) completed (\(cleanCloses) with a close handshake), \(failed) failed",
        ]
        for (category, count) in failures.sorted(by: { $0.value > $1.value }) {
            lines.append("    \(count) × \(category)")
        }
        for example in failureExamples {
            lines.append("    e.g. \(example)")
        }
        return lines.joined(separator: "\n")
    }

    private func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
