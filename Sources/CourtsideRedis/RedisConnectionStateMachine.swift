/// One Redis connection's lifecycle as a value type: it takes events (started, connected, bytes received, closed,
/// a timer, a request, close) with the time they happened, and returns actions (connect, write, complete a
/// request, close the socket) for the I/O shell to perform. It does no I/O and reads no clock.
///
/// ```
/// idle ──start──▶ connecting ──connected──▶ handshaking ──last handshake reply──▶ ready
///                    ▲   │ connect timeout, closed          │ error reply, closed        │ closed, parse error,
///                    │   ▼                                  ▼                            ▼ request timeout
///                    └── waitingToReconnect (capped exponential backoff with jitter) ◀───┘
/// any ──close──▶ closed
/// ```
///
/// **Requests** get an id from the caller. While the connection is ready they are written at once (pipelined) and
/// matched to replies in order: Redis answers a connection's commands in the order it received them. Otherwise they
/// wait in a bounded queue, written once the handshake is done. Every request has a deadline: a queued one fails
/// with `.unavailable` when it passes (never sent), an in-flight one makes the machine close the connection and fail
/// every in-flight request with `.timedOut` (a server that stopped answering mid-pipeline cannot be resynchronised).
/// A connection lost with requests in flight fails them with `.connectionLost`: whether they ran is unknown, so
/// only idempotent requests may be retried blindly.
///
/// Deadlines are checked at the head of each list (the oldest request), which is exact when every request has the
/// same timeout. Blocking commands (`XREAD BLOCK`) with longer timeouts belong on a connection of their own.
///
/// **Handshake:** the URL's `HELLO 3 [AUTH] [SETNAME]` and `SELECT`, pipelined; any error reply fails the attempt,
/// fails the queued requests with `.handshakeFailed` (a wrong password will not fix itself within a deadline) and
/// backs off before trying again. Push messages (RESP3 `>`) are handed out as `.push`, never matched to requests.
public struct RedisConnectionStateMachine: Sendable {
    public typealias RequestID = UInt64

    public struct Configuration: Sendable {
        /// Sent on each new connection before any request.
        public var handshake: [RESPCommand]
        /// How long a TCP connect (and TLS handshake) may take. 2 s: loopback or a LAN connects in milliseconds;
        /// longer means the host is gone.
        public var connectTimeout: Duration
        /// How long a request may wait for its reply, from the moment it is submitted (queued or in flight).
        /// 2 s: Redis answers in microseconds; a command that has waited two seconds is better reported as failed
        /// (the scorer retries it) than left hanging.
        public var requestTimeout: Duration
        /// Requests that may wait for a connection; more fail at once with `.queueFull`. 10,000 absorbs a burst
        /// from every game during a short outage while bounding memory.
        public var maxQueuedRequests: Int
        public var backoff: RedisBackoff
        public var parserLimits: RESPParserLimits

        public init(
            handshake: [RESPCommand], connectTimeout: Duration = .seconds(2), requestTimeout: Duration = .seconds(2),
            maxQueuedRequests: Int = 10_000, backoff: RedisBackoff = RedisBackoff(),
            parserLimits: RESPParserLimits = .default
        ) {
            self.handshake = handshake
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.maxQueuedRequests = maxQueuedRequests
            self.backoff = backoff
            self.parserLimits = parserLimits
        }
    }

    public typealias Instant = ContinuousClock.Instant

    public enum Action: Sendable, Equatable {
        /// Open a new connection (the previous one is closed).
        case connect
        /// Write these bytes to the connection.
        case write([UInt8])
        /// Hand a request its result: the reply, or why there is none. An error reply is `.failure(.server)`.
        case complete(RequestID, Result<RESPValue, RedisError>)
        /// An out-of-band RESP3 push message.
        case push(RESPValue)
        /// Close the connection (without a new one yet).
        case closeConnection
    }

    public enum State: Sendable, Equatable {
        case idle
        case connecting(deadline: Instant)
        /// Handshake replies still expected, due by the connect deadline (connect and handshake share it).
        case handshaking(remaining: Int, deadline: Instant)
        case ready
        case waitingToReconnect(until: Instant)
        case closed
    }

    struct Request: Sendable {
        var id: RequestID
        var command: RESPCommand
        var deadline: Instant
    }

    public private(set) var state = State.idle
    private var configuration: Configuration
    private var parser: RESPParser
    /// Requests waiting for the connection to be ready, oldest first.
    private var queue = RequestFIFO<Request>()
    /// Requests written and unanswered, in the order written (= the order of replies).
    private var inFlight = RequestFIFO<Request>()
    /// Failed attempts since the connection was last ready.
    private var attempt = 0
    /// Why the last attempt failed, for `.unavailable` errors.
    private var lastFailure = "not connected yet"

    public init(configuration: Configuration) {
        self.configuration = configuration
        self.parser = RESPParser(limits: configuration.parserLimits)
    }

    /// Requests queued or in flight.
    public var pendingCount: Int { queue.count + inFlight.count }

    /// Requests written and not answered yet.
    public var inFlightCount: Int { inFlight.count }

    /// When the shell must call `tick`: the earliest of the connect deadline, the reconnection time and the oldest
    /// queued and in-flight requests' deadlines; nil when nothing waits.
    public var nextDeadline: Instant? {
        var deadlines: [Instant] = []
        switch state {
        case .connecting(let deadline), .handshaking(_, let deadline): deadlines.append(deadline)
        case .waitingToReconnect(let until): deadlines.append(until)
        default: break
        }
        if let oldest = queue.first { deadlines.append(oldest.deadline) }
        if let oldest = inFlight.first { deadlines.append(oldest.deadline) }
        return deadlines.min()
    }

    // MARK: events

    /// Starts connecting (once; later calls do nothing).
    public mutating func start(now: Instant) -> [Action] {
        guard state == .idle else { return [] }
        state = .connecting(deadline: now + configuration.connectTimeout)
        return [.connect]
    }

    /// The connection is up: send the handshake.
    public mutating func connected(now: Instant) -> [Action] {
        guard case .connecting(let deadline) = state else { return [] }
        parser = RESPParser(limits: configuration.parserLimits)
        let handshake = configuration.handshake
        guard !handshake.isEmpty else { return becomeReady() }
        state = .handshaking(remaining: handshake.count, deadline: deadline)
        return [.write(handshake.reduce(into: []) { $0 += $1.bytes })]
    }

    /// Bytes arrived on the connection.
    public mutating func received(_ bytes: some Collection<UInt8>, now: Instant) -> [Action] {
        switch state {
        case .handshaking, .ready: break
        default: return []
        }
        parser.feed(bytes)
        var actions: [Action] = []
        loop: while true {
            switch parser.next() {
            case .needMoreData:
                break loop
            case .failed(let error):
                actions += connectionFailed(reason: "\(error)", now: now, inFlightError: .protocolError(error))
                break loop
            case .value(let value):
                actions += replied(value, now: now)
                switch state {
                case .handshaking, .ready: continue loop
                default: break loop
                }
            }
        }
        return actions
    }

    /// The connection closed or could not be opened (`reason` for errors and logs).
    public mutating func connectionClosed(reason: String, now: Instant) -> [Action] {
        switch state {
        case .connecting, .handshaking, .ready:
            return connectionFailed(reason: reason, now: now, inFlightError: nil, closeSocket: false)
        default:
            return []
        }
    }

    /// Submits a request, due within `timeout` (the configuration's `requestTimeout` when nil).
    public mutating func send(_ id: RequestID, _ command: RESPCommand, timeout: Duration? = nil, now: Instant)
        -> [Action]
    {
        let request = Request(id: id, command: command, deadline: now + (timeout ?? configuration.requestTimeout))
        switch state {
        case .closed:
            return [.complete(id, .failure(.closed))]
        case .ready:
            inFlight.append(request)
            return [.write(command.bytes)]
        case .idle, .connecting, .handshaking, .waitingToReconnect:
            guard queue.count < configuration.maxQueuedRequests else {
                return [.complete(id, .failure(.queueFull(limit: configuration.maxQueuedRequests)))]
            }
            queue.append(request)
            return []
        }
    }

    /// Time passed: expire what is due, reconnect when the backoff is over.
    public mutating func tick(now: Instant) -> [Action] {
        var actions: [Action] = []
        while let oldest = queue.first, oldest.deadline <= now {
            _ = queue.popFirst()
            actions.append(
                .complete(oldest.id, .failure(.unavailable(command: oldest.command.name, reason: lastFailure))))
        }
        switch state {
        case .connecting(let deadline) where deadline <= now:
            actions += connectionFailed(
                reason: "connect timed out after \(configuration.connectTimeout)", now: now, inFlightError: nil)
        case .handshaking(_, let deadline) where deadline <= now:
            actions += connectionFailed(
                reason: "handshake unanswered after \(configuration.connectTimeout)", now: now, inFlightError: nil)
        case .ready:
            if let oldest = inFlight.first, oldest.deadline <= now {
                let timeout = configuration.requestTimeout
                actions += connectionFailed(
                    reason: "no reply within \(timeout)", now: now,
                    inFlightError: .timedOut(command: oldest.command.name, after: timeout))
            }
        case .waitingToReconnect(let until) where until <= now:
            state = .connecting(deadline: now + configuration.connectTimeout)
            actions.append(.connect)
        default:
            break
        }
        return actions
    }

    /// Closes for good: every pending request fails with `.closed`.
    public mutating func close() -> [Action] {
        guard state != .closed else { return [] }
        let hadConnection: Bool
        switch state {
        case .connecting, .handshaking, .ready: hadConnection = true
        default: hadConnection = false
        }
        state = .closed
        var actions: [Action] = hadConnection ? [.closeConnection] : []
        actions += failInFlight(.closed)
        actions += failQueued(.closed)
        return actions
    }

    // MARK: transitions

    private mutating func replied(_ value: RESPValue, now: Instant) -> [Action] {
        if case .push = value { return [.push(value)] }
        switch state {
        case .handshaking(let remaining, let deadline):
            let index = configuration.handshake.count - remaining
            if let message = value.errorMessage {
                let name = configuration.handshake[index].name
                lastFailure = "\(name) refused: \(message)"
                var actions = connectionFailed(reason: lastFailure, now: now, inFlightError: nil)
                actions += failQueued(.handshakeFailed(command: name, message: message))
                return actions
            }
            if remaining > 1 {
                state = .handshaking(remaining: remaining - 1, deadline: deadline)
                return []
            }
            return becomeReady()
        case .ready:
            guard let request = inFlight.popFirst() else {
                return connectionFailed(reason: "a reply nobody asked for", now: now, inFlightError: nil)
            }
            if let message = value.errorMessage {
                return [.complete(request.id, .failure(.server(message)))]
            }
            return [.complete(request.id, .success(value))]
        default:
            preconditionFailure("Invalid state: \(state)")  // `received` only parses while handshaking or ready
        }
    }

    private mutating func becomeReady() -> [Action] {
        state = .ready
        attempt = 0
        guard !queue.isEmpty else { return [] }
        var bytes: [UInt8] = []
        for request in queue.removeAll() {
            bytes += request.command.bytes
            inFlight.append(request)
        }
        return [.write(bytes)]
    }

    /// The connection is unusable: fail what is in flight, close the socket (unless it is already closed), and
    /// wait before the next attempt.
    private mutating func connectionFailed(
        reason: String, now: Instant, inFlightError: RedisError?, closeSocket: Bool = true
    ) -> [Action] {
        lastFailure = reason
        var actions: [Action] = closeSocket ? [.closeConnection] : []
        actions += failInFlight(inFlightError)
        attempt += 1
        state = .waitingToReconnect(until: now + configuration.backoff.delay(attempt: attempt))
        return actions
    }

    private mutating func failInFlight(_ error: RedisError?) -> [Action] {
        inFlight.removeAll().map { request in
            Action.complete(
                request.id,
                .failure(error ?? .connectionLost(command: request.command.name, reason: lastFailure)))
        }
    }

    private mutating func failQueued(_ error: RedisError) -> [Action] {
        queue.removeAll().map { Action.complete($0.id, .failure(error)) }
    }
}
