extension Game {
    /// The next instant at which time alone changes the game, or nil: the time limit while the clock runs, and the
    /// earliest window for the other scorer to confirm a play that closes (dual confirmation). A
    /// game's owner arms one timer for it and lets time pass then (`advance(to:)`) instead of polling, so every
    /// deadline the rules gain (a window that closes, say) belongs here, and the owner needs no change for it.
    public var nextDeadline: Timestamp? {
        let limit = isClockRunning ? timeLimitDeadline : nil
        guard let confirmation = nextConfirmationDeadline else { return limit }
        return min(limit ?? confirmation, confirmation)
    }
}
