import Foundation

/// The figures of one run, merged over the loops, as text for people or JSON for scripts.
struct LoadReport: RunReport, Codable, Sendable {
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
        var failures = FailureCounts()
        for result in results {
            histogram.merge(result.histogram)
            failures.merge(result.failures)
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
        failed = failures.total
        self.failures = failures.byCategory
        failureExamples = failures.examples
        connectSeconds = Double(results.map(\.connectNanoseconds).max() ?? 0) / 1e9
        messagesSent = results.reduce(0) { $0 + $1.sentMessages }
        roundTrips = histogram.count
        elapsedSeconds = ended > started ? Double(ended - started) / 1e9 : 0
        messagesPerSecond = elapsedSeconds > 0 ? Double(roundTrips) / elapsedSeconds : 0
        let micro = LatencyHistogram.microseconds
        latencyMicroseconds = Latency(
            min: histogram.count == 0 ? 0 : micro(histogram.minimum), mean: histogram.meanMicroseconds,
            p50: micro(histogram.percentile(0.5)), p90: micro(histogram.percentile(0.9)),
            p99: micro(histogram.percentile(0.99)), p999: micro(histogram.percentile(0.999)),
            max: micro(histogram.maximum))
    }

    /// Whether the run counts as a success: every client connected and finished, and echoes came back.
    var succeeded: Bool { failed == 0 && completed == clients && roundTrips > 0 }

    var text: String {
        let latency = latencyMicroseconds
        let lines =
            [
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
            ] + failureLines
        return lines.joined(separator: "\n")
    }
}
