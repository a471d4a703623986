import CLinux
import Glibc

/// Small wrappers over the socket system calls the loops use. Every socket is non-blocking and close-on-exec.
enum Sockets {
    /// Ignores SIGPIPE process-wide: `writev` takes no `MSG_NOSIGNAL` and OpenSSL's socket BIO calls plain
    /// `write`, so a peer that resets would otherwise kill the process. Idempotent.
    static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// A non-blocking, close-on-exec listening socket bound to `address`.
    ///
    /// `SO_REUSEADDR` lets a restarted server bind while old connections sit in TIME_WAIT; `SO_REUSEPORT` lets every
    /// loop bind its own listener to the same port so the kernel spreads connections over the loops. IPv6 listeners
    /// set `IPV6_V6ONLY` so an IPv4 listener on the same port can coexist.
    ///
    /// `TCP_NODELAY` (`setNoDelay`) and, with `userTimeout`, `TCP_USER_TIMEOUT` are set here once: Linux makes each
    /// accepted socket as a copy of the listener's (`inet_csk_clone_lock`), so every connection starts with both and
    /// accepting costs no `setsockopt` of its own (two system calls per handshake before; docs/benchmarks.md,
    /// "Handshakes"); `ListenerOptionsTests` checks an accepted socket has them. `TCP_USER_TIMEOUT` (RFC 5482)
    /// bounds how long sent data may stay unacknowledged before the kernel gives up on the connection: a peer that
    /// vanished, or whose window stays closed, cannot keep it open on retransmissions and zero-window probes for the
    /// many minutes the defaults allow.
    static func makeListener(
        address: SocketAddress, reusePort: Bool, backlog: Int32, userTimeout: Duration? = nil
    ) throws(NetError) -> Int32 {
        let fd = try syscallRetryingEINTR("socket") {
            socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        }
        do throws(NetError) {
            try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1, name: "setsockopt(SO_REUSEADDR)")
            if reusePort {
                try setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1, name: "setsockopt(SO_REUSEPORT)")
            }
            if address.family == AF_INET6 {
                try setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1, name: "setsockopt(IPV6_V6ONLY)")
            }
            try setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1, name: "setsockopt(TCP_NODELAY)")
            if let userTimeout {
                try setOption(
                    fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, Int32(clamping: userTimeout.millisecondsRoundedUp),
                    name: "setsockopt(TCP_USER_TIMEOUT)")
            }
            let rc = address.withSockAddr { bind(fd, $0, $1) }
            if rc != 0 { throw NetError.syscall("bind(\(address))", errno: errno) }
            if listen(fd, backlog) != 0 { throw NetError.syscall("listen", errno: errno) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The address a socket is bound to (the way to learn an ephemeral port).
    static func localAddress(of fd: Int32) throws(NetError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        if rc != 0 { throw NetError.syscall("getsockname", errno: errno) }
        let address = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0) }
        }
        guard let address else { throw NetError.syscall("getsockname (unknown family)", errno: EAFNOSUPPORT) }
        return address
    }

    /// Disables Nagle's algorithm: WebSocket frames and HTTP responses are written whole, and waiting for an ACK
    /// before sending the next small frame would add up to 40 ms of latency (delayed ACK) to every broadcast.
    static func setNoDelay(_ fd: Int32) {
        _ = try? setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1, name: "setsockopt(TCP_NODELAY)")
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ option: Int32, _ value: Int32, name: String) throws(NetError) {
        var value = value
        if setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            throw NetError.syscall(name, errno: errno)
        }
    }
}
