/// An instant in milliseconds on a clock the caller chooses (a monotonic clock is best; Unix time works).
///
/// The model never reads a clock: every operation that depends on time takes a `Timestamp` parameter, so a game is a
/// pure function of its commands and their times, and tests never sleep. Encoded as a bare JSON number.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since the caller's epoch.
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.milliseconds = try container.decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }

    /// This instant moved `milliseconds` later (earlier when negative). Saturates at the ends of `Int64` instead
    /// of trapping, so a corrupt journal or a wild caller clock cannot crash the server.
    public func advanced(byMilliseconds milliseconds: Int64) -> Timestamp {
        let (sum, overflow) = self.milliseconds.addingReportingOverflow(milliseconds)
        guard overflow else { return Timestamp(milliseconds: sum) }
        return Timestamp(milliseconds: milliseconds > 0 ? .max : .min)
    }

    /// Milliseconds from `earlier` to this instant (negative when `earlier` is later); saturating like `advanced`.
    public func milliseconds(since earlier: Timestamp) -> Int64 {
        let (difference, overflow) = milliseconds.subtractingReportingOverflow(earlier.milliseconds)
        guard overflow else { return difference }
        return milliseconds > earlier.milliseconds ? .max : .min
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    public var description: String { "\(milliseconds)ms" }
}
