/// Lets a warning that any anonymous client can cause through once per `interval` (per whatever owns it: a game),
/// counting the ones held back, so no number of clients turns into as many log lines. A value type with time passed
/// in, so it is tested without waiting.
struct LogSampler {
    /// The shortest time between two lines.
    let interval: Duration
    private var last: ContinuousClock.Instant?
    /// Occurrences since the last line that were not logged.
    private var held = 0

    init(interval: Duration) {
        self.interval = interval
    }

    /// Whether the occurrence at `now` is logged; if so, with how many were held back since the previous line.
    mutating func sample(now: ContinuousClock.Instant) -> (log: Bool, held: Int) {
        if let last, now - last < interval {
            held += 1
            return (false, held)
        }
        defer { held = 0 }
        last = now
        return (true, held)
    }
}
