/// Clients that failed, by category, and the first few failures in full: what both modes' loops count and
/// merge the same way.
struct FailureCounts: Sendable {
    /// At most this many examples are kept: enough to tell what went wrong without flooding the report.
    static let exampleLimit = 5

    private(set) var byCategory: [String: Int] = [:]
    private(set) var examples: [String] = []

    var total: Int { byCategory.values.reduce(0, +) }

    mutating func record(_ failure: LoadClientFailure, count: Int = 1) {
        byCategory[failure.category, default: 0] += count
        addExample(failure.description)
    }

    mutating func merge(_ other: FailureCounts) {
        byCategory.merge(other.byCategory, uniquingKeysWith: +)
        for example in other.examples { addExample(example) }
    }

    private mutating func addExample(_ example: String) {
        if examples.count < Self.exampleLimit && !examples.contains(example) { examples.append(example) }
    }
}
