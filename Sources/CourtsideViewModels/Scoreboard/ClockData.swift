import CourtsideModel

/// What a page needs to animate the game clock itself: the elapsed game time at one instant of the server's clock,
/// and whether it is running. While running, the page shows `elapsedMs + (now - asOf)` (capped at the rules' time
/// limit); while stopped, `elapsedMs`.
///
/// A reading changes only when the clock starts or stops, never as time passes, so it costs no message per tick.
public struct ClockData: Equatable, Sendable {
    public var running: Bool
    /// Elapsed game time at `asOf`, in milliseconds.
    public var elapsedMs: Int64
    /// The server instant of the reading (milliseconds on the server's clock, Unix time in production).
    public var asOf: Timestamp
    /// The game-clock length of the current period, or nil when it is untimed: time remaining is
    /// `periodLengthMs - elapsed`.
    public var periodLengthMs: Int64?

    public init(running: Bool, elapsedMs: Int64, asOf: Timestamp, periodLengthMs: Int64? = nil) {
        self.running = running
        self.elapsedMs = elapsedMs
        self.asOf = asOf
        self.periodLengthMs = periodLengthMs
    }

    /// The elapsed time this reading predicts at `now`.
    public func elapsedMs(at now: Timestamp) -> Int64 {
        running ? elapsedMs + max(0, now.milliseconds(since: asOf)) : elapsedMs
    }
}
