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

    /// This instant moved `milliseconds` later (earlier when negative).
    public func advanced(byMilliseconds milliseconds: Int64) -> Timestamp {
        Timestamp(milliseconds: self.milliseconds + milliseconds)
    }

    /// Milliseconds from `earlier` to this instant (negative when `earlier` is later).
    public func milliseconds(since earlier: Timestamp) -> Int64 {
        milliseconds - earlier.milliseconds
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    public var description: String { "\(milliseconds)ms" }
}
