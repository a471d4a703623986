import CLinux
import Glibc

/// How many connections the server holds at once: in all, and from one peer address. Every accepted TCP connection
/// counts, plain HTTP included (a client opening thousands of idle keep-alive connections takes descriptors as surely
/// as one opening WebSockets), from accept until its descriptor is closed.
///
/// Over either cap a new connection is answered `503 Service Unavailable` with `Connection: close` at once, before
/// its request is read (an upgrade asked on it is thereby refused), and closed; the refusal is counted in
/// ``HTTPServer/connectionStatistics``.
public struct ConnectionCaps: Sendable {
    /// Connections held at once. Default: the descriptor limit (`RLIMIT_NOFILE`) less 64 for listeners, the
    /// journal, logs and the refusals themselves, so an excess is answered 503 instead of waiting in the backlog
    /// while `accept` fails with `EMFILE`.
    public var maxConnections: Int
    /// Connections held at once from one peer address. Default 1024: a venue behind one NAT address still gets a
    /// thousand viewers, while one host cannot take every descriptor.
    public var maxConnectionsPerAddress: Int
    /// Peers not counted per address (a reverse proxy carries every client's connection): still counted in all.
    /// Default: none.
    public var isExemptFromPerAddressCap: @Sendable (SocketAddress) -> Bool

    public init(
        maxConnections: Int = ConnectionCaps.defaultMaxConnections, maxConnectionsPerAddress: Int = 1024,
        isExemptFromPerAddressCap: @escaping @Sendable (SocketAddress) -> Bool = { _ in false }
    ) {
        precondition(maxConnections > 0 && maxConnectionsPerAddress > 0, "connection caps must be positive")
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.isExemptFromPerAddressCap = isExemptFromPerAddressCap
    }

    /// The descriptor limit less a reserve of 64 (at least 16).
    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max
        else { return 65_536 }
        return max(16, Int(clamping: limit.rlim_cur) - 64)
    }
}

/// What the caps (and the write-progress deadline) have seen, for metrics.
public struct ConnectionStatistics: Sendable, Hashable {
    /// Connections open now (every kind: HTTP, WebSocket, event stream).
    public var open: Int
    /// Connections refused because the server held `maxConnections`.
    public var refusedOverMaxConnections: Int
    /// Connections refused because their address held `maxConnectionsPerAddress`.
    public var refusedOverMaxPerAddress: Int
    /// Connections reset because the client read nothing of what was queued for `writeTimeout`.
    public var writeTimeouts: Int = 0
}

/// The counts behind ``ConnectionCaps``, shared by every loop of a server. One lock per accept and per close, never
/// per byte.
final class ConnectionCounter: Sendable {
    enum Refusal: Equatable {
        case maxConnections
        case maxPerAddress
    }

    private struct Counts {
        var open = 0
        var perAddress: [String: Int] = [:]
        var refusedOverMaxConnections = 0
        var refusedOverMaxPerAddress = 0
        var writeTimeouts = 0
    }

    let caps: ConnectionCaps
    private let counts = LockedValue(Counts())

    init(caps: ConnectionCaps) {
        self.caps = caps
    }

    /// Counts a new connection, or says which cap refuses it. An admitted connection must be `release`d once.
    func admit(_ address: SocketAddress?) -> Refusal? {
        let key = perAddressKey(address)
        return counts.withLock { counts in
            guard counts.open < caps.maxConnections else {
                counts.refusedOverMaxConnections += 1
                return .maxConnections
            }
            if let key {
                let current = counts.perAddress[key, default: 0]
                guard current < caps.maxConnectionsPerAddress else {
                    counts.refusedOverMaxPerAddress += 1
                    return .maxPerAddress
                }
                counts.perAddress[key] = current + 1
            }
            counts.open += 1
            return nil
        }
    }

    func release(_ address: SocketAddress?) {
        let key = perAddressKey(address)
        counts.withLock { counts in
            counts.open -= 1
            guard let key else { return }
            let current = counts.perAddress[key, default: 0]
            counts.perAddress[key] = current <= 1 ? nil : current - 1
        }
    }

    /// Counts a connection reset by the write-progress deadline.
    func writeTimedOut() {
        counts.withLock { $0.writeTimeouts += 1 }
    }

    var statistics: ConnectionStatistics {
        counts.withLock { counts in
            ConnectionStatistics(
                open: counts.open, refusedOverMaxConnections: counts.refusedOverMaxConnections,
                refusedOverMaxPerAddress: counts.refusedOverMaxPerAddress, writeTimeouts: counts.writeTimeouts)
        }
    }

    /// The per-address key (the host, without the port), or nil when the peer is exempt or unknown.
    private func perAddressKey(_ address: SocketAddress?) -> String? {
        guard let address, !caps.isExemptFromPerAddressCap(address) else { return nil }
        return address.host
    }
}
