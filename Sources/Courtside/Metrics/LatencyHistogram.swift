/// A Prometheus histogram of durations (cumulative buckets, sum and count), as a value under the metrics lock.
struct LatencyHistogram {
    /// Upper bounds in seconds: from a fast fsync (~0.1 ms) to a disk stalling for seconds.
    static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private(set) var counts = [Int](repeating: 0, count: LatencyHistogram.bounds.count)
    private(set) var sum: Double = 0
    private(set) var count = 0

    mutating func observe(seconds: Double) {
        for (index, bound) in Self.bounds.enumerated() where seconds <= bound {
            counts[index] += 1
        }
        sum += seconds
        count += 1
    }

    /// The `_bucket`, `_sum` and `_count` lines of metric `name`.
    func lines(name: String) -> [String] {
        var lines: [String] = []
        for (index, bound) in Self.bounds.enumerated() {
            lines.append("\(name)_bucket{le=\"\(bound)\"} \(counts[index])")
        }
        lines.append("\(name)_bucket{le=\"+Inf\"} \(count)")
        lines.append("\(name)_sum \(sum)")
        lines.append("\(name)_count \(count)")
        return lines
    }
}
