/// The delay before reconnection attempt `attempt` (1 for the first retry after a cut): capped exponential steps
/// with "equal jitter", each delay drawn between half and all of its step from the caller's random source. Venues
/// cut by one outage then do not return in lockstep, none retries sooner than half its step, and a test passing a
/// seeded generator gets the same delays every run.
func relayBackoffDelay(
    attempt: Int, settings: RelaySettings, using random: inout some RandomNumberGenerator
) -> Int64 {
    let initial = max(1, settings.backoffInitialMilliseconds)
    let maximum = max(initial, settings.backoffMaximumMilliseconds)
    var step = initial
    for _ in 1..<max(1, min(attempt, 64)) where step < maximum {
        step = min(maximum, step * 2)
    }
    let half = step / 2
    return half + Int64.random(in: 0...(step - half), using: &random)
}
