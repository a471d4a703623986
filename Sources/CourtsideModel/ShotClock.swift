/// The shot clock: milliseconds left, counted down only while running, from instants the caller passes. It stops
/// at zero by itself (a reading never goes below zero), so its expiry needs no event: FIBA has the officials, not
/// the clock, stop play on a violation.
public struct ShotClock: Sendable, Hashable {
    public private(set) var isEnabled: Bool
    /// Milliseconds left when the current run started (all of it while stopped).
    public private(set) var remainingMsAtStart: Int64
    /// When the current run started, or nil while stopped.
    public private(set) var runningSince: Timestamp?
    /// When it last started, stopped, was set or switched (nil before): the instant its reading is taken at.
    public private(set) var changedAt: Timestamp?

    /// An enabled shot clock, full and stopped.
    public init(fullMs: Int64) {
        self.isEnabled = true
        self.remainingMsAtStart = fullMs
        self.runningSince = nil
    }

    public var isRunning: Bool { runningSince != nil }

    /// Milliseconds left at `now`, never below zero.
    public func remainingMs(at now: Timestamp) -> Int64 {
        guard let runningSince else { return remainingMsAtStart }
        return max(0, remainingMsAtStart - max(0, now.milliseconds(since: runningSince)))
    }

    mutating func start(at now: Timestamp) {
        guard isEnabled, runningSince == nil else { return }
        runningSince = now
        changedAt = now
    }

    mutating func pause(at now: Timestamp) {
        guard runningSince != nil else { return }
        remainingMsAtStart = remainingMs(at: now)
        runningSince = nil
        changedAt = now
    }

    /// Sets the time left; a running shot clock runs on from it.
    mutating func set(_ ms: Int64, at now: Timestamp) {
        remainingMsAtStart = ms
        if runningSince != nil { runningSince = now }
        changedAt = now
    }

    mutating func enable(fullMs: Int64, at now: Timestamp) {
        self = ShotClock(fullMs: fullMs)
        changedAt = now
    }

    mutating func disable(at now: Timestamp) {
        pause(at: now)
        isEnabled = false
        changedAt = now
    }
}
