import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRedisJournal

/// Why the application could not start. Each case names the file or port at fault. (A stored game that cannot be
/// read back or replayed does not stop the start: it is quarantined, see `ApplicationCore.quarantine`.)
public enum ApplicationError: Error, Sendable, CustomStringConvertible {
    /// The journal in the data directory could not be opened or read.
    case journal(directory: String, JournalError)
    /// The Redis journal could not be opened (Redis unreachable, refused the login, too old for functions).
    case redisJournal(url: String, JournalError)
    /// The list of Redis servers does not match what they store (another order, fewer of them, one twice), or one
    /// could not be asked: two nodes would disagree on where a game lives (docs/cluster.md, "Past one Redis").
    case redisPartitions(RedisPartitionError)
    /// The courts in the data directory could not be opened or read (`courts.sqlite3`).
    case courts(directory: String, CourtStoreError)
    /// A stored game does not replay to a valid game (an edited or corrupted database).
    case corruptGame(GameID, GameReplayError)
    /// The TLS certificate or key could not be loaded.
    case tls(TLSError)
    /// `--upstream` is not a URL the venue's uplink can connect to.
    case upstream(UpstreamURLError)
    /// The event loops could not start, or the address could not be bound.
    case cannotListen(host: String, port: Int, NetError)

    public var description: String {
        switch self {
        case .journal(let directory, let error): "cannot use the data directory \(directory): \(error)"
        case .redisJournal(let url, let error): "cannot use Redis at \(url): \(error)"
        case .redisPartitions(let error): "cannot partition the games over the Redis servers: \(error)"
        case .courts(let directory, let error): "cannot use the courts in \(directory): \(error)"
        case .corruptGame(let id, let error): "stored game \(id) does not replay: \(error)"
        case .tls(let error): "TLS: \(error)"
        case .upstream(let error): "--upstream: \(error)"
        case .cannotListen(let host, let port, let error): "cannot listen on \(host):\(port): \(error)"
        }
    }
}
