import CourtsideModel

/// What a page needs to show the shot clock: its reading at one server instant. While running, the page shows
/// `max(0, remainingMs - (now - asOf))`; while stopped, `remainingMs`. Like ``ClockData`` it changes only when a
/// scorer operates the shot clock (or the game clock starts or stops it), never as time passes.
public struct ShotClockData: Equatable, Sendable {
    public var enabled: Bool
    public var running: Bool
    /// Milliseconds left at `asOf`.
    public var remainingMs: Int64
    /// The server instant of the reading; nil before the shot clock was first operated.
    public var asOf: Timestamp?

    public init(_ shotClock: ShotClock) {
        enabled = shotClock.isEnabled
        running = shotClock.isRunning
        remainingMs = shotClock.remainingMsAtStart
        asOf = shotClock.runningSince ?? shotClock.changedAt
    }
}
