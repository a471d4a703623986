import Foundation

/// The figures of one `courtside-load journal` run: every step, and where each kind saturated.
struct JournalReport: RunReport, Sendable, Encodable {
    var kinds: [JournalOptions.Kind]
    var games: Int
    var connections: Int
    var secondsPerStep: Double
    var p99BoundMs: Double
    var started: String
    var loadAverageAfter: String
    var steps: [JournalStep.Result]
    /// Why each kind stopped stepping up; a kind missing here held every rate asked.
    var saturated: [String: String]
    var failures: [String: Int]
    var failureExamples: [String]

    init(options: JournalOptions, started: Date, steps: [JournalStep.Result], saturated: [String: String]) {
        kinds = options.kinds
        games = options.games
        connections = options.connections
        secondsPerStep = options.seconds
        p99BoundMs = options.p99BoundMs
        self.started = ISO8601DateFormatter().string(from: started)
        loadAverageAfter = Self.loadAverage()
        self.steps = steps
        self.saturated = saturated
        let failing = steps.filter { $0.failed > 0 }
        failures = Dictionary(failing.map { ("\($0.kind) appends failed", $0.failed) }, uniquingKeysWith: +)
        failureExamples = failing.compactMap { $0.firstFailure.map { "\($0)" } }
    }

    /// Whether every kind held the first rate asked (the load the run is about, e.g. 500/s): past it, a
    /// saturating step is the measurement, failed appends included (a Redis past its limit answers
    /// `unavailable` after the request timeout instead of queueing without bound).
    var succeeded: Bool {
        guard let first = firstRate else { return false }
        return steps.allSatisfy { $0.rate != first || $0.saturated == nil }
    }

    private var firstRate: Int? { steps.first?.rate }

    var text: String {
        var lines = [
            "courtside-load journal: \(games) games, \(secondsPerStep) s a step, p99 bound \(p99BoundMs) ms, "
                + "\(connections) Redis connection(s); started \(started), load average after \(loadAverageAfter)",
            "| journal | rate asked /s | achieved /s | p50 ms | p99 ms | max ms | program CPU µs/append "
                + "| Redis CPU µs/append | saturated |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for step in steps {
            lines.append(
                "| \(step.kind) | \(step.rate) | \(Int(step.achievedPerSecond)) | \(format(step.p50Ms, 2)) "
                    + "| \(format(step.p99Ms, 2)) | \(format(step.maxMs, 2)) "
                    + "| \(format(step.loadCPUMicrosecondsPerAppend, 1)) "
                    + "| \(step.redisCPUMicrosecondsPerAppend.map { format($0, 1) } ?? "—") "
                    + "| \(step.saturated ?? "") |")
        }
        for kind in kinds {
            lines.append("\(kind): " + (saturated[kind.rawValue].map { "saturated \($0)" } ?? "held every rate asked"))
        }
        if !failures.isEmpty { lines += ["failures:"] + failureLines }
        return lines.joined(separator: "\n")
    }

    /// One step as a progress line (stderr, while the run goes on).
    static func line(_ step: JournalStep.Result) -> String {
        "\(step.kind) at \(step.rate)/s: \(Int(step.achievedPerSecond))/s, p50 \(step.p50Ms) ms, p99 \(step.p99Ms) ms, "
            + "max \(step.maxMs) ms" + (step.saturated.map { " — saturated: \($0)" } ?? "")
    }

    /// The 1-, 5- and 15-minute load averages (/proc/loadavg).
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
