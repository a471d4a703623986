import Glibc

/// Errors raised by the network core. Each carries the context needed to act on it.
public enum NetError: Error, Equatable, CustomStringConvertible {
    /// A system call failed; `errno` is the value it left.
    case syscall(_ name: String, errno: Int32)
    /// A host name or address could not be resolved to a socket address.
    case addressResolution(host: String, port: Int, reason: String)
    /// The operation needs a running loop or server and it has stopped.
    case shutDown

    public var description: String {
        switch self {
        case .syscall(let name, let errno):
            return "\(name) failed: \(String(cString: strerror(errno))) (errno \(errno))"
        case .addressResolution(let host, let port, let reason):
            return "cannot resolve \(host) port \(port): \(reason)"
        case .shutDown:
            return "the event loop has shut down"
        }
    }
}

/// Runs a system call that returns -1 with errno on failure, retrying on EINTR.
@inline(__always)
func syscallRetryingEINTR<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws(NetError) -> T {
    while true {
        let result = body()
        if result == -1 {
            let err = errno
            if err == EINTR { continue }
            throw NetError.syscall(name, errno: err)
        }
        return result
    }
}
