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

    enum ConnectResult {
        case connected(Int32)
        case inProgress(Int32)
        case failed(errno: Int32)
    }

    /// A non-blocking TCP socket with TCP_NODELAY (each small message goes out at once, as an echo client's
    /// would), connecting to `target`.
    static func connect(to target: LoadTarget) -> ConnectResult {
        let fd = socket(target.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(errno: errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = target.withSocketAddress { Glibc.connect(fd, $0, $1) }
        if rc == 0 { return .connected(fd) }
        let code = errno
        if code == EINPROGRESS { return .inProgress(fd) }
        close(fd)
        return .failed(errno: code)
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
