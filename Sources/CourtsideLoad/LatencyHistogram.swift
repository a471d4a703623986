/// Round-trip times in nanoseconds, in log-linear buckets: fixed memory however long the run, and every
/// reported percentile within 1/64 (1.6%) of the true sample (64 buckets per power of two, like HdrHistogram
/// with two significant digits). Minimum, maximum and mean are exact.
struct LatencyHistogram: Sendable {
    /// Buckets per power of two; the relative error of a bucket is 1 / subBuckets.
    private static let subBucketBits = 6
    private static let subBuckets = 1 << subBucketBits
    /// Values below `2 * subBuckets` have a bucket each; above, one row of `subBuckets` per power of two.
    private static let bucketCount = 2 * subBuckets + (64 - subBucketBits - 1) * subBuckets

    private var counts = [UInt64](repeating: 0, count: bucketCount)
    private(set) var count: UInt64 = 0
    private(set) var minimum: UInt64 = .max
    private(set) var maximum: UInt64 = 0
    private var sum: Double = 0

    mutating func record(_ nanoseconds: UInt64) {
        counts[Self.bucket(for: nanoseconds)] += 1
        count += 1
        minimum = Swift.min(minimum, nanoseconds)
        maximum = Swift.max(maximum, nanoseconds)
        sum += Double(nanoseconds)
    }

    mutating func merge(_ other: LatencyHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
        count += other.count
        minimum = Swift.min(minimum, other.minimum)
        maximum = Swift.max(maximum, other.maximum)
        sum += other.sum
    }

    var mean: Double { count == 0 ? 0 : sum / Double(count) }

    /// The value at or below which `fraction` (0...1) of the samples lie; the top percentile is the exact maximum.
    func percentile(_ fraction: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let rank = Swift.max(1, UInt64((fraction * Double(count)).rounded(.up)))
        if rank >= count { return maximum }
        var seen: UInt64 = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += bucketCount
            if seen >= rank { return Swift.min(Self.representative(of: index), maximum) }
        }
        return maximum
    }

    private static func bucket(for value: UInt64) -> Int {
        if value < UInt64(2 * subBuckets) { return Int(value) }
        let highestBit = 63 - value.leadingZeroBitCount
        let shift = highestBit - subBucketBits
        let mantissa = Int(value >> UInt64(shift))  // in subBuckets..<2*subBuckets
        return 2 * subBuckets + (shift - 1) * subBuckets + (mantissa - subBuckets)
    }

    /// The middle of a bucket's range.
    private static func representative(of index: Int) -> UInt64 {
        if index < 2 * subBuckets { return UInt64(index) }
        let row = (index - 2 * subBuckets) / subBuckets
        let shift = row + 1
        let mantissa = UInt64(subBuckets + (index - 2 * subBuckets) % subBuckets)
        return (mantissa << UInt64(shift)) + (UInt64(1) << UInt64(shift)) / 2
    }
}
