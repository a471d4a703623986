/// A `ContinuousClock` instant held as whole nanoseconds from a process-wide origin: 8 bytes, with a spare value
/// for "none", where an `Instant` takes 16 and an optional one 17 (padded to 24 beside other fields). A connection
/// keeps several deadlines for its whole life, so this is worth bytes on every idle socket (docs/benchmarks.md,
/// "Idle memory"). Public because an HTTP connection's timer action carries one: a plain value, where an `Instant`
/// (not frozen) gave the action enum a run-time layout.
///
/// Exact for instants on the nanosecond grid, which is what `ContinuousClock.now` returns and what tests build
/// from it with whole durations; anything finer is truncated towards the origin. The range is ±292 years.
public struct CompactInstant: Equatable, Comparable, Hashable, Sendable, CustomStringConvertible {
    public typealias Instant = ContinuousClock.Instant

    /// The origin every compact instant counts from (the first time one is made; any instant would do).
    private static let origin = ContinuousClock.now

    /// No instant (the spare value).
    public static let none = CompactInstant(nanoseconds: .min)

    private let nanoseconds: Int64

    private init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    public init(_ instant: Instant) {
        // From the attoseconds directly: `Duration.components` divides a 128-bit count twice over, and an HTTP
        // connection converts `now` on most events (docs/benchmarks.md, "Static files").
        nanoseconds = Int64(truncatingIfNeeded: (instant - Self.origin).attoseconds / 1_000_000_000)
    }

    /// `optional` compacted, `.none` for nil.
    public init(_ optional: Instant?) {
        self = optional.map(CompactInstant.init) ?? .none
    }

    /// The instant, or nil for `.none`.
    public var instant: Instant? {
        nanoseconds == .min ? nil : Self.origin + .nanoseconds(nanoseconds)
    }

    /// This instant plus `nanoseconds` (a timeout converted once, `Timeout`), without 128-bit arithmetic.
    package func advanced(byNanoseconds nanoseconds: Int64) -> CompactInstant {
        CompactInstant(nanoseconds: self.nanoseconds + nanoseconds)
    }

    /// Whole nanoseconds of `duration`, for ``advanced(byNanoseconds:)``.
    package static func nanoseconds(of duration: Duration) -> Int64 {
        Int64(truncatingIfNeeded: duration.attoseconds / 1_000_000_000)
    }

    public static func < (lhs: CompactInstant, rhs: CompactInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public var description: String { nanoseconds == .min ? "none" : "\(nanoseconds) ns from the origin" }
}
