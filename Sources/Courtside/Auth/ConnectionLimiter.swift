import Synchronization

/// Counts the long-lived connections (WebSockets, event streams) of each client address, across every loop, so one
/// host cannot take every descriptor (docs/server.md, "Limits").
///
/// Checked when a request asks to become long-lived (at the upgrade): over the cap it is answered `429 Too Many
/// Requests` (the client is told to slow down). It counts by `ClientAddress`, so it matters behind a trusted proxy:
/// the network core already counts every connection, plain ones included, per TCP peer (`ConnectionCaps`, 503), and
/// exempts the proxy's address from that count.
///
/// Memory: an address is in the table only while it holds a connection (its last release removes it), so the table
/// never holds more entries than there are open connections, which the network core caps; no call scans it.
final class ConnectionLimiter: Sendable {
    /// Open long-lived connections allowed per address.
    let limit: Int
    private let counts = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Reserves a slot for `address`; false when it already has `limit`. A successful call must be paired with
    /// one ``release(_:)``.
    func acquire(_ address: String) -> Bool {
        counts.withLock { counts in
            let current = counts[address, default: 0]
            guard current < limit else { return false }
            counts[address] = current + 1
            return true
        }
    }

    func release(_ address: String) {
        counts.withLock { counts in
            let current = counts[address, default: 0]
            if current <= 1 { counts[address] = nil } else { counts[address] = current - 1 }
        }
    }

    func count(for address: String) -> Int {
        counts.withLock { $0[address, default: 0] }
    }

    /// Addresses holding a connection (tests: the table empties as connections close).
    var count: Int {
        counts.withLock { $0.count }
    }
}
