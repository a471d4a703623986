/// Why a Redis request failed. Each case says whether the command may have run, which decides whether a caller
/// may retry it blindly.
public enum RedisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with an error reply (the command ran and refused, or did not run): its message, which
    /// starts with a code such as `ERR`, `WRONGTYPE` or a script's own.
    case server(String)
    /// The connection closed while the request was written and unanswered: it may or may not have run.
    case connectionLost(command: String, reason: String)
    /// No reply within the request's deadline; the connection was closed (it may or may not have run).
    case timedOut(command: String, after: Duration)
    /// No connection came up before the request's deadline: it was never sent. `reason` is the last connection
    /// failure.
    case unavailable(command: String, reason: String)
    /// A handshake command (`HELLO`, `AUTH`, `SELECT`) was refused: wrong password, unknown user, a server older
    /// than Redis 6 (no `HELLO`), a database out of range.
    case handshakeFailed(command: String, message: String)
    /// Too many requests wait for a connection (`maxQueuedRequests`): the request was never sent.
    case queueFull(limit: Int)
    /// The server's bytes broke the protocol; the connection was closed.
    case protocolError(RESPParseError)
    /// The client was closed.
    case closed

    public var description: String {
        switch self {
        case .server(let message): return "Redis error: \(message)"
        case .connectionLost(let command, let reason):
            return "connection to Redis lost while \(command) was unanswered (it may have run): \(reason)"
        case .timedOut(let command, let after): return "Redis did not answer \(command) within \(after)"
        case .unavailable(let command, let reason): return "Redis unavailable, \(command) not sent: \(reason)"
        case .handshakeFailed(let command, let message): return "Redis refused \(command): \(message)"
        case .queueFull(let limit): return "more than \(limit) Redis requests wait for a connection"
        case .protocolError(let error): return "Redis protocol error: \(error)"
        case .closed: return "the Redis client is closed"
        }
    }
}
