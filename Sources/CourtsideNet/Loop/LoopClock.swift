/// The loops' time source. The clock is read in exactly one place, `LoopClock.now()`: the event loop reads it once
/// per iteration and hands that value to everything it runs (`LoopContext.now`), so timers, idle deadlines and the
/// protocol state machines (which take `now` parameters) see one consistent time, and tests can inject any instant.
///
/// `ContinuousClock` is monotonic (it never jumps with wall-clock changes) and is the clock the WebSocket state
/// machine's deadlines are expressed in, so no conversion is needed between layers.
enum LoopClock {
    typealias Instant = ContinuousClock.Instant

    static func now() -> Instant {
        ContinuousClock.now
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to `Int64`.
    var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = ns.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return sum
    }

    /// The duration in whole milliseconds, rounded up so a timeout never fires early.
    var millisecondsRoundedUp: Int64 {
        let ns = nanosecondsClamped
        if ns <= 0 { return 0 }
        return ns / 1_000_000 + (ns % 1_000_000 == 0 ? 0 : 1)
    }
}
