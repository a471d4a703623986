/// Why a list of Redis servers cannot be used as the game partitions (docs/cluster.md, "Past one Redis"): each case
/// names the server (its URL without the password) and what it holds, so the operator sees which list is wrong.
public enum RedisPartitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server is recorded as another partition: the list is in another order than when it was first used.
    case otherIndex(url: String, configured: Int, stored: Int, storedSize: Int)
    /// The server was recorded in a longer list: partitions were removed (the list may only grow).
    case shrunk(url: String, configured: Int, storedSize: Int)
    /// The same server (host, port and database) is listed twice.
    case duplicate(url: String)
    /// The server could not be asked (unreachable, refused, or answered something else).
    case unavailable(url: String, reason: String)

    public var description: String {
        switch self {
        case .otherIndex(let url, let configured, let stored, let size):
            "\(url) is listed as partition \(configured) but stores partition \(stored) of \(size): list the Redis"
                + " servers in the order they were first used"
        case .shrunk(let url, let configured, let size):
            "\(url) stores a list of \(size) partitions but only \(configured) are given: the list may only grow"
        case .duplicate(let url):
            "\(url) is listed twice"
        case .unavailable(let url, let reason):
            "cannot check the partition of \(url): \(reason)"
        }
    }
}
