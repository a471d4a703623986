import CLinux
import Glibc

/// Where each signal's handler writes: one eventfd per signal number, -1 when none. Allocated once, before any
/// handler is installed, and written only by `SignalWakeup.init` before it installs a handler; a C signal handler
/// can reach nothing but globals, and reading a slot of raw memory is async-signal-safe where a Swift array is not.
nonisolated(unsafe) private let signalWakeupFDs: UnsafeMutablePointer<Int32> = {
    let slots = UnsafeMutablePointer<Int32>.allocate(capacity: signalSlotCount)
    slots.initialize(repeating: -1, count: signalSlotCount)
    return slots
}()

/// Signal numbers on Linux stay below 65 (SIGRTMAX is 64).
private let signalSlotCount = 65

/// Turns signals into a wake-up a thread can wait for: the handler writes to an eventfd (`write(2)` is
/// async-signal-safe) and ``wait()`` reads it. Unlike `signalfd`, this needs no signal mask in every thread, so it
/// works whenever it is installed, even after the loops' threads started (the signals are also unblocked, since a
/// parent may start us with them blocked).
///
/// Used for SIGTERM/SIGINT (graceful shutdown) and SIGHUP (reload: `systemctl reload` sends it through the unit's
/// `ExecReload=`). Installing a handler replaces the signal's default action. Several signals before a `wait()`
/// collapse into one wake-up (the eventfd counts; `wait()` takes the count). The latest instance for a signal
/// receives it.
public final class SignalWakeup: Sendable {
    private let fd: Int32

    /// Installs the handler for each of `signals`.
    public init(_ signals: [Int32]) throws(NetError) {
        fd = try syscallRetryingEINTR("eventfd") { eventfd(0, Int32(EFD_CLOEXEC)) }
        for number in signals {
            guard number > 0, number < Int32(signalSlotCount) else {
                throw NetError.syscall("sigaction(\(number))", errno: EINVAL)
            }
            signalWakeupFDs[Int(number)] = fd
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var one: UInt64 = 1
                _ = withUnsafeBytes(of: &one) { write(signalWakeupFDs[Int(number)], $0.baseAddress, 8) }
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            if sigaction(number, &action, nil) != 0 {
                throw NetError.syscall("sigaction(\(number))", errno: errno)
            }
            _ = clinux_unblock_signal(number)
        }
    }

    /// Graceful shutdown: SIGTERM and SIGINT.
    public static func shutdown() throws(NetError) -> SignalWakeup {
        try SignalWakeup([SIGTERM, SIGINT])
    }

    /// Reload: SIGHUP.
    public static func reload() throws(NetError) -> SignalWakeup {
        try SignalWakeup([SIGHUP])
    }

    /// Blocks until one of the signals has arrived (once or more) since the last `wait()`.
    public func wait() {
        var value: UInt64 = 0
        while true {
            let count = withUnsafeMutableBytes(of: &value) { read(fd, $0.baseAddress, 8) }
            if count == 8 { return }
            if count < 0 && errno != EINTR { return }
        }
    }
}
