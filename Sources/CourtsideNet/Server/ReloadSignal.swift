import CLinux
import Glibc

/// The write end of the eventfd the SIGHUP handler writes to. Set once before the handler is installed and only read
/// afterwards (by the handler), so the unsynchronised global is safe; a C signal handler can reach nothing else.
nonisolated(unsafe) private var reloadSignalFD: Int32 = -1

/// Turns SIGHUP, the conventional "reload your configuration" signal (`systemctl reload` sends it through the
/// unit's `ExecReload=`), into a wake-up a thread can wait for, the way `ShutdownSignals` does for SIGTERM/SIGINT:
/// the handler writes to an eventfd (`write(2)` is async-signal-safe) and `wait()` reads it. Installing it also
/// replaces SIGHUP's default action, which would end the process.
///
/// Several signals before a `wait()` collapse into one wake-up (the eventfd counts, `wait()` takes the count): one
/// reload covers them all.
public final class ReloadSignal: Sendable {
    private let fd: Int32

    /// Installs the handler for `signal` (SIGHUP). One instance per process is meaningful.
    public init(_ signal: Int32 = SIGHUP) throws(NetError) {
        fd = try syscallRetryingEINTR("eventfd") { eventfd(0, Int32(EFD_CLOEXEC)) }
        reloadSignalFD = fd
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { write(reloadSignalFD, $0.baseAddress, 8) }
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        if sigaction(signal, &action, nil) != 0 {
            throw NetError.syscall("sigaction(\(signal))", errno: errno)
        }
        _ = clinux_unblock_signal(signal)
    }

    /// Blocks until the signal has arrived (once or more) since the last `wait()`.
    public func wait() {
        var value: UInt64 = 0
        while true {
            let count = withUnsafeMutableBytes(of: &value) { read(fd, $0.baseAddress, 8) }
            if count == 8 { return }
            if count < 0 && errno != EINTR { return }
        }
    }
}
