import Glibc

/// Polls `condition` every `interval` until it holds or `limit` passes; its last answer. The one bounded wait for
/// a condition another thread makes true (a server's loop, a child process): the tests never sleep a fixed time.
///
/// It blocks the calling thread between polls, so it belongs in a suite with `.ownThread` (or off the pool).
public func eventually(
    within limit: Duration = .seconds(10), every interval: Duration = .milliseconds(20), _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        sleepThisThread(for: interval)
    }
    return try condition()
}

/// Sleeps the calling thread for `duration` (resumed after a signal for the rest). Only for the poll of a bounded
/// wait (`eventually`, `pause`) or pacing a load generator: never to let time pass (`ManualScheduler` does that).
public func sleepThisThread(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var remaining = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    while true {
        var request = remaining
        guard nanosleep(&request, &remaining) == -1, errno == EINTR else { return }
    }
}
