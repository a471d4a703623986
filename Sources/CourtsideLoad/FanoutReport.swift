import Foundation

/// The figures of one fan-out run, as text or JSON.
struct FanoutReport: RunReport, Sendable, Encodable {
    struct Latency: Sendable, Encodable {
        var p50: Double
        var p99: Double
        var p999: Double
        var max: Double
        var mean: Double
    }

    var subscribeURL: String
    var subscribers: Int
    var threads: Int
    var deflateOffered: Bool
    var deflateRequired: Bool
    /// Messages per second asked for; nil at `--rate max`.
    var rate: Double?
    var window: Int
    var fileLimit: Int
    var connected: Int
    var deflateNegotiated: Int
    var connectSeconds: Double
    var published: Int
    var stoppedBy: String
    var publisherFailure: String?
    var publishSeconds: Double
    /// From the first message published to the last delivered.
    var deliverySeconds: Double
    var delivered: Int
    /// `published × connected`: what a lossless run delivers.
    var expectedDeliveries: Int
    var deliveredPerSecond: Double
    var publishedPerSecond: Double
    /// Messages a subscriber never received (skipped midway or missing at the end).
    var missing: Int
    /// Deliveries that arrived after the drain timeout (during the close handshake): late, not lost.
    var late: Int
    var outOfOrder: Int
    var decodeErrors: Int
    var drained: Bool
    var failed: Int
    var failures: [String: Int]
    var failureExamples: [String]
    /// Publish to delivery, in microseconds, across every subscriber and message.
    var latencyMicroseconds: Latency
    var wireBytesPerMessage: Double
    var plainFrameBytesPerMessage: Double
    var wireRatio: Double
    var compressedFraction: Double
    /// Sizes of the delivered messages (inflated), bytes.
    var messageBytesMin: Int
    var messageBytesMax: Int
    var serverRSSBeforeKiB: Int?
    var serverRSSIdleKiB: Int?
    var serverRSSPerConnectionKiB: Double?
    var serverCPUSeconds: Double?
    var serverCPUMicrosecondsPerDelivery: Double?
    var loadCPUSeconds: Double
    /// This process's CPU per delivered frame: the generator's share of the cores the server runs on.
    var loadCPUMicrosecondsPerDelivery: Double?
    /// Seconds the server's and the generator's threads waited runnable for a CPU while publishing and draining
    /// (/proc schedstat): on a shared machine, how much of the latency is waiting for a core.
    var serverRunQueueWaitSeconds: Double?
    var loadRunQueueWaitSeconds: Double?
    /// The server's heap calls while publishing and draining (`--alloc-counter`), and per delivered frame.
    var serverAllocations: AllocationCounts?
    var serverAllocationsPerDelivery: Double?
    var serverFreesPerDelivery: Double?

    init(options: FanoutOptions, tally: FanoutTally, measured: FanoutRun.Measurements) {
        let target = options.subscribeTarget
        subscribeURL = (options.subscribeTLS ? "wss://" : "ws://") + target.hostHeader + target.path
        subscribers = options.subscribers
        threads = options.threads
        deflateOffered = options.deflate
        deflateRequired = options.requireDeflate
        rate = options.rate
        window = options.window
        fileLimit = measured.fileLimit
        connected = tally.upgraded
        deflateNegotiated = tally.deflateNegotiated
        connectSeconds = Double(tally.connectNanoseconds) / 1e9
        published = measured.published
        stoppedBy = measured.stoppedBy
        publisherFailure = measured.publisherFailure
        publishSeconds = Double(measured.publishEnd &- measured.publishStart) / 1e9
        deliverySeconds =
            tally.lastDelivery > measured.publishStart ? Double(tally.lastDelivery - measured.publishStart) / 1e9 : 0
        delivered = tally.delivered
        expectedDeliveries = measured.published * tally.upgraded
        deliveredPerSecond = deliverySeconds > 0 ? Double(delivered) / deliverySeconds : 0
        publishedPerSecond = publishSeconds > 0 ? Double(published) / publishSeconds : 0
        missing = tally.skipped + tally.missing
        late = tally.late
        outOfOrder = tally.outOfOrder
        decodeErrors = tally.decodeErrors
        drained = measured.drained
        failed = tally.failures.total
        failures = tally.failures.byCategory
        failureExamples = tally.failures.examples
        let histogram = tally.latency
        let micro = LatencyHistogram.microseconds
        latencyMicroseconds = Latency(
            p50: micro(histogram.percentile(0.5)), p99: micro(histogram.percentile(0.99)),
            p999: micro(histogram.percentile(0.999)), max: micro(histogram.count == 0 ? 0 : histogram.maximum),
            mean: histogram.meanMicroseconds)
        let count = Double(max(1, delivered))
        wireBytesPerMessage = Double(tally.wireBytes) / count
        plainFrameBytesPerMessage = Double(tally.plainFrameBytes) / count
        wireRatio = tally.plainFrameBytes > 0 ? Double(tally.wireBytes) / Double(tally.plainFrameBytes) : 0
        compressedFraction = Double(tally.compressedMessages) / count
        messageBytesMin = delivered > 0 ? tally.smallestMessage : 0
        messageBytesMax = tally.largestMessage
        serverRSSBeforeKiB = measured.serverRSSBeforeKiB
        serverRSSIdleKiB = measured.serverRSSIdleKiB
        if let before = measured.serverRSSBeforeKiB, let idle = measured.serverRSSIdleKiB, tally.upgraded > 0 {
            serverRSSPerConnectionKiB = Double(idle - before) / Double(tally.upgraded)
        }
        serverCPUSeconds = measured.serverCPUSeconds
        if let cpu = measured.serverCPUSeconds, delivered > 0 {
            serverCPUMicrosecondsPerDelivery = cpu * 1e6 / Double(delivered)
        }
        loadCPUSeconds = measured.loadCPUSeconds
        if delivered > 0 { loadCPUMicrosecondsPerDelivery = measured.loadCPUSeconds * 1e6 / Double(delivered) }
        serverRunQueueWaitSeconds = measured.serverRunQueueWaitSeconds
        loadRunQueueWaitSeconds = measured.loadRunQueueWaitSeconds
        serverAllocations = measured.serverAllocations
        if let allocations = measured.serverAllocations, delivered > 0 {
            serverAllocationsPerDelivery =
                Double(allocations.allocations + allocations.reallocations) / Double(delivered)
            serverFreesPerDelivery = Double(allocations.frees) / Double(delivered)
        }
    }

    /// Every subscriber connected (agreeing deflate when it was required) and received every published message
    /// exactly once, in order, intact.
    var succeeded: Bool {
        (!deflateRequired || deflateNegotiated == connected) && publisherFailure == nil && published > 0
            && connected == subscribers && failed == 0 && missing == 0
            && outOfOrder == 0 && decodeErrors == 0 && delivered == expectedDeliveries && drained
    }

    var text: String {
        let latency = latencyMicroseconds
        let rateText = rate.map { "\(format($0, 0)) msg/s" } ?? "max (window \(window))"
        var lines = [
            "courtside-load fanout \(subscribeURL)",
            "  subscribers  \(connected)/\(subscribers) connected in \(format(connectSeconds, 2)) s on \(threads)"
                + " thread(s)" + (deflateOffered ? ", deflate agreed by \(deflateNegotiated)" : ", no deflate offered")
                + " (open-file limit \(fileLimit))",
            "  published    \(published) at \(rateText): \(format(publishedPerSecond, 0)) msg/s over"
                + " \(format(publishSeconds, 2)) s (stopped by \(stoppedBy))",
            "  delivered    \(delivered) of \(expectedDeliveries): \(format(deliveredPerSecond, 0)) frames/s;"
                + " missing \(missing), out of order \(outOfOrder), decode errors \(decodeErrors)"
                + (drained ? "" : ", NOT drained within the drain timeout (\(late) arrived late)"),
            "  latency µs   p50 \(format(latency.p50, 1))  p99 \(format(latency.p99, 1))  p99.9 \(format(latency.p999, 1))"
                + "  max \(format(latency.max, 1))  (mean \(format(latency.mean, 1)))",
            "  wire bytes   \(format(wireBytesPerMessage, 1)) per message (plain frames \(format(plainFrameBytesPerMessage, 1)),"
                + " ratio \(format(wireRatio, 3)), \(format(compressedFraction * 100, 1))% compressed;"
                + " messages \(messageBytesMin)–\(messageBytesMax) bytes)",
        ]
        if let before = serverRSSBeforeKiB, let idle = serverRSSIdleKiB, let perConnection = serverRSSPerConnectionKiB {
            lines.append(
                "  server RSS   \(before) KiB before, \(idle) KiB with every subscriber idle:"
                    + " \(format(perConnection, 2)) KiB per connection")
        }
        if let cpu = serverCPUSeconds {
            lines.append(cpuLine("server CPU", cpu, "while publishing and draining", serverCPUMicrosecondsPerDelivery))
        }
        if let allocations = serverAllocations, let perDelivery = serverAllocationsPerDelivery {
            lines.append(
                "  server heap  \(allocations.allocations) allocations, \(allocations.reallocations) reallocations,"
                    + " \(allocations.frees) frees, \(allocations.bytes) bytes asked while publishing and draining:"
                    + " \(format(perDelivery, 4)) (re)allocations per delivered message")
        }
        lines.append(cpuLine("load CPU", loadCPUSeconds, "(this process, same window)", loadCPUMicrosecondsPerDelivery))
        if let server = serverRunQueueWaitSeconds, let load = loadRunQueueWaitSeconds {
            lines.append(
                "  CPU waits    server \(format(server, 2)) s, load \(format(load, 2)) s runnable but not running"
                    + " (same window)")
        }
        if let publisherFailure { lines.append("  publisher    \(publisherFailure)") }
        if failed > 0 { lines.append("  failed       \(failed) subscribers") }
        lines += failureLines
        return lines.joined(separator: "\n")
    }

    /// "  server CPU   4.12 s while publishing and draining: 1.650 µs per delivered message".
    private func cpuLine(_ label: String, _ seconds: Double, _ window: String, _ perDelivery: Double?) -> String {
        "  \(label.padding(toLength: 13, withPad: " ", startingAt: 0))\(format(seconds, 2)) s \(window)"
            + (perDelivery.map { ": \(format($0, 3)) µs per delivered message" } ?? "")
    }
}
