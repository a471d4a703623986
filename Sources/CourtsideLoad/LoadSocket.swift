import CLinux
import Glibc

/// The few socket calls the load loop makes, each returning the errno on failure.
enum LoadSocket {
    /// Monotonic time in nanoseconds (CLOCK_MONOTONIC: never jumps with the wall clock).
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// A duration in seconds (an option's value) as nanoseconds of ``now()``.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(seconds * 1e9)
    }

    enum ConnectResult {
        case connected(Int32)
        case inProgress(Int32)
        case failed(errno: Int32)
    }

    /// A non-blocking TCP socket with TCP_NODELAY (each small message goes out at once, as an echo client's
    /// would), connecting to `target`.
    static func connect(to target: LoadTarget, from source: UInt32? = nil) -> ConnectResult {
        let fd = socket(target.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(errno: errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if let source, case .ipv4 = target.address {
            let code = bind(fd, toIPv4: source)
            if code != 0 {
                close(fd)
                return .failed(errno: code)
            }
        }
        let rc = target.withSocketAddress { Glibc.connect(fd, $0, $1) }
        if rc == 0 { return .connected(fd) }
        let code = errno
        if code == EINPROGRESS { return .inProgress(fd) }
        close(fd)
        return .failed(errno: code)
    }

    /// Linux's IP_BIND_ADDRESS_NO_PORT (<linux/in.h>; not in Glibc's module): the port is picked at connect time
    /// for the whole 4-tuple, so a bound source address does not reserve a port per socket by itself.
    private static let ipBindAddressNoPort: Int32 = 24

    /// Binds `fd` to the IPv4 address `address` (host byte order) and port 0, before connecting: spreading
    /// clients over several 127.0.0.x sources multiplies the ephemeral ports available to a run. 0 or errno.
    private static func bind(_ fd: Int32, toIPv4 address: UInt32) -> Int32 {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_IP), ipBindAddressNoPort, &one, socklen_t(MemoryLayout<Int32>.size))
        var storage = sockaddr_in()
        storage.sin_family = sa_family_t(AF_INET)
        storage.sin_port = 0
        storage.sin_addr = in_addr(s_addr: address.bigEndian)
        let rc = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return rc == 0 ? 0 : errno
    }

    /// The result of a non-blocking connect once the socket is writable: 0 or the errno.
    static func pendingError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    enum IOResult {
        case bytes(Int)
        case wouldBlock
        case endOfStream
        case failed(errno: Int32)
    }

    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> IOResult {
        let rc = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        if rc >= 0 { return .bytes(rc) }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .wouldBlock : .failed(errno: code)
    }

    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        let rc = recv(fd, buffer.baseAddress, buffer.count, 0)
        if rc > 0 { return .bytes(rc) }
        if rc == 0 { return .endOfStream }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .wouldBlock : .failed(errno: code)
    }

    /// Raises the open-file limit to what `needed` descriptors require, up to the hard limit; returns the
    /// resulting soft limit.
    @discardableResult
    static func raiseFileLimit(to needed: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < rlim_t(needed) {
            limit.rlim_cur = min(rlim_t(needed), limit.rlim_max)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(limit.rlim_cur)
    }
}
