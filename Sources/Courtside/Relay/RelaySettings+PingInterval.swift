import CourtsideJournal

extension RelaySettings {
    /// Sets the venue's health checks from one ping interval (`--upstream-ping`), keeping the defaults' proportions
    /// (docs/relay.md, "Health checks and backoff"): silence for three intervals is a dead link (three pings
    /// unanswered), entries unacknowledged for one and a half are a stuck path, and `welcome` is awaited one interval.
    /// Short intervals let a test find a blackholed link in well under a second.
    mutating func scaleHealthChecks(toPingEvery milliseconds: Int64) {
        pingIntervalMilliseconds = milliseconds
        silenceLimitMilliseconds = milliseconds * 3
        writeDeadlineMilliseconds = milliseconds * 3 / 2
        helloDeadlineMilliseconds = milliseconds
    }
}
