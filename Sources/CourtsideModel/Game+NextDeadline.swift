extension Game {
    /// The next instant at which time alone changes the game, or nil: today the time limit while the clock runs. A
    /// game's owner arms one timer for it and lets time pass then (`advance(to:)`) instead of polling, so every
    /// deadline the rules gain (a window that closes, say) belongs here, and the owner needs no change for it.
    public var nextDeadline: Timestamp? {
        isClockRunning ? timeLimitDeadline : nil
    }
}
