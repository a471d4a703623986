import CourtsideNet
import Glibc

/// The in-process transport for the routes that need a connection (WebSocket and event-stream upgrades), where
/// `RouterTransport` carries a request alone: one end of a `socketpair(AF_UNIX)` is handed to the server, which
/// serves it on one of its loops exactly as a socket its listener accepted (`HTTPServer.adopt`: the caps, the HTTP
/// parser, the upgrade, the WebSocket machine, the socket view of the route), and the test keeps the other end. No
/// TCP, no port, no listener's accept queue: what the test writes are the frames in, what it reads the frames out,
/// and with a `ManualScheduler` for the sockets their time moves only when the test moves it.
///
/// What only TCP does (a shrunken receive window, `TCP_USER_TIMEOUT`, the kernel's per-connection buffers as a slow
/// reader sees them) is not exercised: those tests keep a loopback socket.
public enum InProcessConnection {
    /// Why the pair could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let call: String
        public let errno: Int32
        public var description: String { "\(call): errno \(errno)" }
    }

    /// The peer an in-process connection seems to come from (the server reads it for per-address limits).
    public static let defaultRemoteAddress = SocketAddress.v4(host: "127.0.0.1", port: 40001)

    /// Opens a connection to `server` on its loop `loopIndex` and returns the test's end: blocking, owned by the
    /// caller (close it when done; the server closes its own end as it would a TCP connection's).
    public static func open(
        to server: HTTPServer, remoteAddress: SocketAddress = defaultRemoteAddress, loopIndex: Int = 0
    ) throws(Failure) -> Int32 {
        var fds: [Int32] = [-1, -1]
        // Non-blocking for the server's loop; the test's end is made blocking again below (it reads with timeouts).
        let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw Failure(call: "socketpair", errno: errno) }
        let flags = fcntl(fds[1], F_GETFL)
        guard flags >= 0, fcntl(fds[1], F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            let failure = Failure(call: "fcntl", errno: errno)
            close(fds[0])
            close(fds[1])
            throw failure
        }
        server.adopt(connectedSocket: fds[0], remoteAddress: remoteAddress, loopIndex: loopIndex)
        return fds[1]
    }
}
