import CLinux
import Foundation
import Glibc
import Synchronization

/// The venue's Internet link in a `courtside-load relay` run: a TCP forwarder on loopback from the port the venue's
/// `--upstream` names to the public node. Before ``start(listenPort:upstream:)`` nothing listens on that port (the
/// venue's connects are refused: its link is down, and it backs off); from then on each connection the venue opens
/// is forwarded byte for byte on a thread of its own, and the first one's arrival is noted: when the venue saw the
/// link return. Bounded: at most ``maxConnections`` connections, every wait at most 100 ms between checks of `stop`.
final class RelayProxy: Sendable {
    static let maxConnections = 64

    /// When the proxy began listening (the link returned), monotonic nanoseconds.
    let startedAt: UInt64
    /// When the venue's first connection arrived; 0 before.
    let firstConnectionAt = Atomic<UInt64>(0)
    let connections = Atomic<Int>(0)
    /// Bytes forwarded each way: venue to public, public to venue.
    let bytesUp = Atomic<Int>(0)
    let bytesDown = Atomic<Int>(0)
    private let listener: Int32
    private let upstream: LoadTarget
    private let stopping = Atomic<Bool>(false)
    private let threads = Atomic<Int>(0)

    private init(listener: Int32, upstream: LoadTarget) {
        self.listener = listener
        self.upstream = upstream
        startedAt = LoadSocket.now()
    }

    /// Listens on 127.0.0.1:`listenPort` and forwards every connection to `upstream`, or says why it cannot.
    static func start(listenPort: UInt16, upstream: LoadTarget) -> Result<RelayProxy, RelayRunError> {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.linkPort(listenPort, errno: errno)) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = listenPort.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            return .failure(.linkPort(listenPort, errno: code))
        }
        let proxy = RelayProxy(listener: fd, upstream: upstream)
        proxy.spawn { proxy.acceptLoop() }
        return .success(proxy)
    }

    /// Ends every forwarding thread and closes the listener, waiting at most 5 s.
    func stop() {
        stopping.store(true, ordering: .releasing)
        let deadline = LoadSocket.now() + LoadSocket.nanoseconds(5)
        while threads.load(ordering: .acquiring) > 0 && LoadSocket.now() < deadline { usleep(10_000) }
    }

    private func spawn(_ body: @escaping @Sendable () -> Void) {
        threads.add(1, ordering: .releasing)
        let thread = Thread { [self] in
            body()
            threads.subtract(1, ordering: .releasing)
        }
        thread.name = "courtside-load-link"
        thread.start()
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !stopping.load(ordering: .acquiring) {
            guard Self.wait(listener, for: Int16(POLLIN)) else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            let count = connections.add(1, ordering: .acquiringAndReleasing).newValue
            _ = firstConnectionAt.compareExchange(
                expected: 0, desired: LoadSocket.now(), ordering: .acquiringAndReleasing)
            guard count <= Self.maxConnections, let server = connectUpstream() else {
                close(client)
                continue
            }
            spawn { [self] in forward(client, server) }
        }
    }

    /// A connection to the public node, or nil (the venue's connection is then closed: it retries).
    private func connectUpstream() -> Int32? {
        switch LoadSocket.connect(to: upstream) {
        case .failed: return nil
        case .connected(let fd): return fd
        case .inProgress(let fd):
            let deadline = LoadSocket.now() + LoadSocket.nanoseconds(5)
            while LoadSocket.now() < deadline {
                if Self.wait(fd, for: Int16(POLLOUT)) {
                    if LoadSocket.pendingError(fd) == 0 { return fd }
                    break
                }
            }
            close(fd)
            return nil
        }
    }

    /// Copies bytes both ways until either side ends (a WebSocket needs no half-close) or the run stops.
    private func forward(_ client: Int32, _ server: Int32) {
        defer {
            close(client)
            close(server)
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var fds = [
            pollfd(fd: client, events: Int16(POLLIN), revents: 0),
            pollfd(fd: server, events: Int16(POLLIN), revents: 0),
        ]
        while !stopping.load(ordering: .acquiring) {
            guard poll(&fds, 2, 100) > 0 else { continue }
            if fds[0].revents != 0 {
                guard let count = pass(from: client, to: server, buffer: &buffer) else { return }
                bytesUp.add(count, ordering: .relaxed)
            }
            if fds[1].revents != 0 {
                guard let count = pass(from: server, to: client, buffer: &buffer) else { return }
                bytesDown.add(count, ordering: .relaxed)
            }
        }
    }

    /// One read from `from` written wholly to `to`: the bytes passed, or nil once either side ended.
    private func pass(from: Int32, to: Int32, buffer: inout [UInt8]) -> Int? {
        let count = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return 0 }
        guard count > 0, writeAll(buffer[..<count], to: to) else { return nil }
        return count
    }

    private func writeAll(_ bytes: ArraySlice<UInt8>, to fd: Int32) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            if stopping.load(ordering: .acquiring) { return false }
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                offset += written
            } else if written < 0 && (errno == EAGAIN || errno == EINTR) {
                _ = Self.wait(fd, for: Int16(POLLOUT))
            } else {
                return false
            }
        }
        return true
    }

    /// Whether `fd` became ready for `events` within 100 ms.
    private static func wait(_ fd: Int32, for events: Int16) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        return poll(&entry, 1, 100) > 0
    }
}
