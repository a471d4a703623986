import CLinux
import Glibc

/// A listening socket registered with one loop; accepts until `EAGAIN` and hands each fd to `onAccept`.
///
/// **Running out of descriptors.** `accept4` failing with `EMFILE`/`ENFILE` (or `ENOBUFS`/`ENOMEM`) leaves the
/// connection in the backlog, so level-triggered epoll would report the listener again at once and the loop would
/// spin. Instead the listener stops polling (interest set to nothing) and retries after `exhaustionBackoff`; pending
/// clients wait in the backlog rather than being reset, and accepting resumes by itself once descriptors free up.
final class Listener: EventHandler, LoopClosable {
    /// Accepts per readiness event: a burst of connections cannot starve established ones on this loop.
    static let maxAcceptsPerEvent = 64
    /// Pause after descriptor exhaustion. 100 ms keeps the CPU idle (10 attempts a second) while recovering
    /// quickly enough that a client retrying would barely notice.
    static let exhaustionBackoff: Duration = .milliseconds(100)

    let fd: Int32
    let address: SocketAddress
    private let onAccept: (Int32, SocketAddress?, LoopContext) -> Void
    private var paused = false
    private var closed = false
    private var retryTimer: TimerID?
    /// Times accepting paused for lack of descriptors (for tests and metrics).
    private(set) var exhaustionPauses = 0

    init(fd: Int32, address: SocketAddress, onAccept: @escaping (Int32, SocketAddress?, LoopContext) -> Void) {
        self.fd = fd
        self.address = address
        self.onAccept = onAccept
    }

    func activate(context: LoopContext) throws(NetError) {
        try context.register(fd: fd, handler: self, events: EPOLLIN.rawValue)
    }

    func handleEvents(_ events: UInt32, context: LoopContext) {
        guard !closed, !paused else { return }
        for _ in 0..<Self.maxAcceptsPerEvent {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let accepted = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept4(fd, $0, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
                }
            }
            if accepted >= 0 {
                let remote = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0) }
                }
                onAccept(accepted, remote, context)
                if closed { return }
                continue
            }
            let err = errno
            switch err {
            case EAGAIN, EWOULDBLOCK:
                return
            case EINTR, ECONNABORTED, EPROTO, EPERM:
                // The peer gave up before we accepted, or a firewall refused it: the next one may be fine.
                continue
            default:
                // EMFILE, ENFILE, ENOBUFS, ENOMEM, or anything unexpected: retrying now would spin.
                pause(context: context)
                return
            }
        }
    }

    private func pause(context: LoopContext) {
        paused = true
        exhaustionPauses += 1
        context.modify(fd: fd, events: 0)
        retryTimer = context.scheduleTimer(after: Self.exhaustionBackoff) { [weak self] context in
            guard let self, !self.closed else { return }
            self.retryTimer = nil
            self.paused = false
            context.modify(fd: self.fd, events: EPOLLIN.rawValue)
        }
    }

    /// Stops listening: new connections are refused by the kernel from now on.
    func close(context: LoopContext) {
        guard !closed else { return }
        closed = true
        if let retryTimer { context.cancelTimer(retryTimer) }
        context.deregister(fd: fd)
        Glibc.close(fd)
    }

    func closeNow(context: LoopContext) {
        close(context: context)
    }
}

@available(*, unavailable)
extension Listener: Sendable {}
