/// A `ContinuousClock` instant held as whole nanoseconds from a process-wide origin: 8 bytes, with a spare value
/// for "none", where an `Instant` takes 16 and an optional one 17 (padded to 24 beside other fields). A connection
/// keeps several deadlines for its whole life, so this is worth bytes on every idle socket (docs/benchmarks.md,
/// "Idle memory").
///
/// Exact for instants on the nanosecond grid, which is what `ContinuousClock.now` returns and what tests build
/// from it with whole durations; anything finer is truncated towards the origin. The range is ±292 years.
@usableFromInline
package struct CompactInstant: Equatable, Comparable, Sendable {
    package typealias Instant = ContinuousClock.Instant

    /// The origin every compact instant counts from (the first time one is made; any instant would do).
    private static let origin = ContinuousClock.now

    /// No instant (the spare value).
    package static let none = CompactInstant(nanoseconds: .min)

    private let nanoseconds: Int64

    private init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    package init(_ instant: Instant) {
        let (seconds, attoseconds) = (instant - Self.origin).components
        nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// `optional` compacted, `.none` for nil.
    package init(_ optional: Instant?) {
        self = optional.map(CompactInstant.init) ?? .none
    }

    /// The instant, or nil for `.none`.
    package var instant: Instant? {
        nanoseconds == .min ? nil : Self.origin + .nanoseconds(nanoseconds)
    }

    @usableFromInline
    package static func < (lhs: CompactInstant, rhs: CompactInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}
