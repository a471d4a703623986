import Foundation

/// What the reports of both modes share: JSON for scripts, and in the text the number format and the lines
/// listing the failures.
protocol RunReport: Encodable {
    /// Clients or subscribers that failed, by category, and the first few in full.
    var failures: [String: Int] { get }
    var failureExamples: [String] { get }
}

/// A report a mode prints as text and whose verdict is its exit status.
protocol PrintedReport {
    var text: String { get }
    var succeeded: Bool { get }
}

extension TapReport: PrintedReport {}
extension RelayReport: PrintedReport {}

extension RunReport {
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// One line per failure category, most frequent first, then the examples.
    var failureLines: [String] {
        failures.sorted(by: { $0.value > $1.value }).map { "    \($0.value) × \($0.key)" }
            + failureExamples.map { "    e.g. \($0)" }
    }

    func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}

extension LatencyHistogram {
    /// Nanoseconds as microseconds with one decimal, as the reports print them.
    static func microseconds(_ nanoseconds: UInt64) -> Double {
        (Double(nanoseconds) / 100).rounded() / 10
    }

    /// The mean in microseconds with one decimal.
    var meanMicroseconds: Double { (mean / 100).rounded() / 10 }
}
