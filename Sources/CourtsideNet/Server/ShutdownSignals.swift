import CLinux
import Glibc

/// The write end of the self-pipe used by the signal handler. Written once before any handler is installed and only
/// read afterwards (by the handler), so the unsynchronised global is safe; a C signal handler can reach nothing else.
nonisolated(unsafe) private var shutdownSignalFD: Int32 = -1

/// Turns SIGTERM/SIGINT into a wake-up a thread can wait for: the handler writes to an eventfd (`write(2)` is
/// async-signal-safe), and `wait()` blocks on a read of it. Unlike `signalfd`, this needs no signal mask in every
/// thread, so it works whenever it is installed, even after the loops' threads started.
public final class ShutdownSignals: Sendable {
    private let fd: Int32

    /// Installs the handlers. Only one instance per process is meaningful (the handler has one target).
    public init(_ signals: [Int32] = [SIGTERM, SIGINT]) throws(NetError) {
        fd = try syscallRetryingEINTR("eventfd") { eventfd(0, Int32(EFD_CLOEXEC)) }
        shutdownSignalFD = fd
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var one: UInt64 = 1
                _ = withUnsafeBytes(of: &one) { write(shutdownSignalFD, $0.baseAddress, 8) }
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            if sigaction(number, &action, nil) != 0 {
                throw NetError.syscall("sigaction(\(number))", errno: errno)
            }
            _ = clinux_unblock_signal(number)
        }
    }

    /// Blocks until one of the signals arrives.
    public func wait() {
        var value: UInt64 = 0
        while true {
            let count = withUnsafeMutableBytes(of: &value) { read(fd, $0.baseAddress, 8) }
            if count == 8 { return }
            if count < 0 && errno != EINTR { return }
        }
    }
}
