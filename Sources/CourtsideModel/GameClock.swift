/// The game clock: elapsed game time, counted only while running, from instants the caller passes.
///
/// It never reads the wall clock. A reading for an instant before the clock last started counts that run as zero,
/// so a caller whose clock steps back sees time stand still rather than run backwards. It knows nothing of time
/// limits: `Game` stops it at the limit and when the game finishes.
public struct GameClock: Sendable, Hashable, Codable {
    /// Game time run before the current run (all of it while paused).
    public private(set) var accumulatedMs: Int64
    /// When the current run started, or nil while paused.
    public private(set) var runningSince: Timestamp?
    /// When the clock last stopped (a pause, the time limit, the winning basket) or, stopped, was set (a correction,
    /// a new period), or nil if it never ran. Part of the state so that a game rebuilt from its events shows the
    /// same stopped reading as the live one did.
    public private(set) var stoppedAt: Timestamp?

    /// A paused clock at 0.
    public init() {
        self.accumulatedMs = 0
        self.runningSince = nil
        self.stoppedAt = nil
    }

    public var isRunning: Bool { runningSince != nil }

    /// Elapsed game time in milliseconds at `now`.
    public func elapsedMs(at now: Timestamp) -> Int64 {
        guard let runningSince else { return accumulatedMs }
        // Both terms are >= 0: saturate rather than trap on absurd instants.
        let (sum, overflow) = accumulatedMs.addingReportingOverflow(max(0, now.milliseconds(since: runningSince)))
        return overflow ? .max : sum
    }

    /// Starts the clock at `now`; returns false (and changes nothing) when it is already running.
    @discardableResult
    public mutating func start(at now: Timestamp) -> Bool {
        guard runningSince == nil else { return false }
        runningSince = now
        return true
    }

    /// Pauses the clock at `now`, keeping the time run so far; returns false (and changes nothing) when paused.
    @discardableResult
    public mutating func pause(at now: Timestamp) -> Bool {
        guard runningSince != nil else { return false }
        accumulatedMs = elapsedMs(at: now)
        runningSince = nil
        stoppedAt = now
        return true
    }

    /// The instant at which the running clock shows `elapsedMs`, or nil while paused.
    public func instant(whenElapsedIs elapsedMs: Int64) -> Timestamp? {
        runningSince?.advanced(byMilliseconds: elapsedMs - accumulatedMs)
    }
}

extension GameClock {
    /// A stopped clock at 0, as a new period's, set at `now`.
    init(resetAt now: Timestamp) {
        self.init()
        stoppedAt = now
    }

    /// Sets the elapsed time (a scorer's correction); a running clock runs on from it.
    mutating func set(elapsedMs: Int64, at now: Timestamp) {
        accumulatedMs = elapsedMs
        if runningSince != nil {
            runningSince = now
        } else {
            stoppedAt = now
        }
    }
}
