/// The lifecycle of one server-side HTTP/1.1 connection, as a value that takes events and returns
/// ``HTTPConnectionAction``s (held inline, ``HTTPConnectionActions``): reading requests (with the parser's partial data inside), handing each complete request
/// to the application, writing its answer in order, keep-alive and its idle deadline, the request deadline (the
/// slowloris guard), back-pressure against the response queue, a fair share of each loop iteration, graceful
/// shutdown, and the hand-over to a WebSocket or an event stream. It does no I/O and reads no clock: every event
/// that depends on time carries `now`, so tests drive its deadlines as traces.
///
/// The owner (the event loop's connection handler) performs the actions and reports what happens. Actions carry no
/// payload: the request of a `.handle` and the answer of a `.write` wait in the machine until the owner takes them.
///
/// ```swift
/// perform(machine.bytesReceived(bytes, now: now))
/// repeat {                                           // pump: one request at a time, in order
///     actions = machine.nextRequest(now: now, queuedBytes: queue.byteCount)
///     perform(actions)                               // .handle → route machine.takeRequest(), then exactly one of
/// } while actions.containsHandle                     //   respond(_:now:), respondLater() + respond later, handOver()
/// ```                                                // .write → encode machine.takeWrite()
///
/// Not enforced here: the write-progress deadline and the linger of a closing connection (the transport's), and what
/// a route answers.
public struct HTTPConnectionStateMachine {
    public typealias Instant = ContinuousClock.Instant

    /// Limits and timings; see `HTTPServer.Configuration` for the reasons behind each default.
    public struct Configuration: Sendable, Equatable {
        public var parserLimits: HTTPParserLimits
        /// A request, once started (or from the moment of connecting), must be complete within this.
        public var requestTimeout: Duration
        /// How long a kept-alive connection may sit idle between requests.
        public var keepAliveTimeout: Duration
        /// Time to complete the TLS handshake after connecting.
        public var tlsHandshakeTimeout: Duration
        /// Response bytes queued past which no further pipelined request is taken until the queue drains.
        public var maxQueuedResponseBytes: Int
        /// Requests taken per loop iteration before the rest waits for the next one (fairness between connections).
        public var requestsPerIteration: Int

        public init(
            parserLimits: HTTPParserLimits = .default, requestTimeout: Duration = .seconds(10),
            keepAliveTimeout: Duration = .seconds(30), tlsHandshakeTimeout: Duration = .seconds(10),
            maxQueuedResponseBytes: Int = 1024 * 1024, requestsPerIteration: Int = 16
        ) {
            precondition(requestsPerIteration > 0, "requestsPerIteration must be positive")
            self.parserLimits = parserLimits
            self.requestTimeout = requestTimeout
            self.keepAliveTimeout = keepAliveTimeout
            self.tlsHandshakeTimeout = tlsHandshakeTimeout
            self.maxQueuedResponseBytes = maxQueuedResponseBytes
            self.requestsPerIteration = requestsPerIteration
        }
    }

    /// Deadlines are `CompactInstant`s: `ContinuousClock.Instant` is not frozen, so carried here it made the state's
    /// layout a run-time one, and every copy of the machine went through the runtime's value witnesses.
    enum State {
        /// TLS is being negotiated; no request can arrive yet.
        case tlsHandshake(deadline: CompactInstant)
        /// Waiting for (the rest of) a request, which must be complete by `deadline`. With nothing received yet the
        /// deadline closes quietly; with part of a request, it answers 408.
        case reading(deadline: CompactInstant)
        /// Kept alive between requests: closed quietly at `deadline`.
        case idle(deadline: CompactInstant)
        /// `request` was handed to the application; its answer has not been given. `deferred`: it comes later, and
        /// reading is paused meanwhile (no deadline runs: the application answers).
        case answering(HTTPAnsweredRequest, keepAlive: Bool, deferred: Bool)
        /// A last response is queued; the transport closes once it is flushed.
        case closing
        /// The connection belongs to a WebSocket or an event stream now.
        case handedOver
    }

    /// Why requests are not taken although bytes may be buffered.
    enum Pause: Equatable {
        case none
        /// The response queue passed `maxQueuedResponseBytes`: until ``drained(now:)``.
        case drain
        /// This iteration's share was taken: until ``iterationStarted()``.
        case yield
    }

    public let configuration: Configuration
    var state: State
    var pause = Pause.none
    /// The requests received and not yet taken (partial data of the next one included).
    var parser: HTTPRequestParser
    /// Close after the answer in progress (graceful shutdown asked while a request was in flight).
    var closeAfterResponse = false
    /// Requests taken since this iteration's reading began.
    var takenThisIteration = 0
    /// The deadline the owner's timer is set for, as far as we told it.
    var scheduledDeadline = CompactInstant.none
    /// The answer for a connection over a connection cap, sent instead of reading anything.
    let refusal: HTTPResponse?
    /// The timeouts in nanoseconds, converted once: deadlines are set on most events.
    private let requestTimeout: Int64
    private let keepAliveTimeout: Int64

    // The payloads of the step just returned, until the owner takes them while performing it: the actions stay
    // plain values (``HTTPConnectionAction``). Each is set by the step that returns its action and taken by that
    // step's owner before it reports anything else.
    /// The request of a `.handle`.
    private var handedRequest: HTTPRequest?
    /// The answer of a `.write`.
    private var pendingWrite: HTTPConnectionWrite?

    /// A connection accepted at `now`; `secure` when TLS must be negotiated first. With `refusal` the connection is
    /// answered that at once (or after the handshake) and closed without a request being read.
    public init(configuration: Configuration, secure: Bool, refusal: HTTPResponse? = nil, now: Instant) {
        self.configuration = configuration
        self.refusal = refusal
        parser = HTTPRequestParser(limits: configuration.parserLimits)
        requestTimeout = CompactInstant.nanoseconds(of: configuration.requestTimeout)
        keepAliveTimeout = CompactInstant.nanoseconds(of: configuration.keepAliveTimeout)
        state =
            secure
            ? .tlsHandshake(deadline: CompactInstant(now + configuration.tlsHandshakeTimeout))
            : .reading(deadline: CompactInstant(now + configuration.requestTimeout))
    }

    /// When ``timerFired(now:)`` next has work to do, or nil.
    public var nextDeadline: Instant? {
        nextCompactDeadline.instant
    }

    private var nextCompactDeadline: CompactInstant {
        switch state {
        case .tlsHandshake(let deadline), .idle(let deadline): deadline
        // Paused for drain: the client is slow to read our answers, which the write-progress deadline bounds.
        case .reading(let deadline): pause == .drain ? .none : deadline
        case .answering, .closing, .handedOver: .none
        }
    }

    /// Whether the connection still speaks HTTP (not closing, not handed over).
    public var isActive: Bool {
        switch state {
        case .closing, .handedOver: false
        case .tlsHandshake, .reading, .idle, .answering: true
        }
    }

    // MARK: events

    /// The connection is registered: arm the first deadline, or send the refusal.
    public mutating func start(now: Instant) -> HTTPConnectionActions {
        if case .reading = state, let refusal { return close(with: refusal, to: nil) }
        return timerActions()
    }

    /// The TLS handshake finished: the first request's deadline starts now.
    public mutating func tlsHandshakeCompleted(now: Instant) -> HTTPConnectionActions {
        guard case .tlsHandshake = state else { return HTTPConnectionActions() }
        if let refusal { return close(with: refusal, to: nil) }
        state = .reading(deadline: deadline(now, after: requestTimeout))
        return timerActions()
    }

    /// Bytes of requests arrived. Take requests with ``nextRequest(now:queuedBytes:)`` afterwards.
    public mutating func bytesReceived(_ bytes: some Collection<UInt8>, now: Instant) -> HTTPConnectionActions {
        guard willReceive(now: now) else { return HTTPConnectionActions() }
        parser.feed(bytes)
        return received()
    }

    /// ``bytesReceived(_:now:)`` for the loop's read buffer: the bytes are copied as one block, where the generic
    /// form, not specialized across modules, appended them one by one (docs/benchmarks.md, "Static files").
    public mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer, now: Instant) -> HTTPConnectionActions {
        guard willReceive(now: now) else { return HTTPConnectionActions() }
        parser.feed(bytes)
        return received()
    }

    /// Whether bytes arriving now are parsed; a kept-alive connection starts its next request's deadline.
    private mutating func willReceive(now: Instant) -> Bool {
        switch state {
        case .idle:
            state = .reading(deadline: deadline(now, after: requestTimeout))
            return true
        case .tlsHandshake, .reading, .answering:
            return true
        case .closing, .handedOver:
            return false
        }
    }

    /// After bytes were fed: a new share of requests for this iteration, and the deadline if it moved earlier.
    private mutating func received() -> HTTPConnectionActions {
        takenThisIteration = 0
        return timerActions()
    }

    /// The next step: `.handle` for the next complete request (take it, answer it before asking again), or a pause
    /// (queue past its cap, iteration's share taken), or nothing until more bytes arrive.
    public mutating func nextRequest(now: Instant, queuedBytes: Int) -> HTTPConnectionActions {
        guard case .reading = state, pause == .none else { return HTTPConnectionActions() }
        if takenThisIteration == configuration.requestsPerIteration {
            pause = .yield
            return HTTPConnectionActions(.yieldIteration)
        }
        if queuedBytes > configuration.maxQueuedResponseBytes {
            // The client pipelines faster than it reads: stop until what we sent is read (back-pressure).
            pause = .drain
            return HTTPConnectionActions(.waitForDrain)
        }
        switch parser.next() {
        case .request(let request):
            takenThisIteration += 1
            state = .answering(HTTPAnsweredRequest(request.head), keepAlive: request.head.keepAlive, deferred: false)
            handedRequest = consume request
            return HTTPConnectionActions(.handle)
        case .needMoreData:
            if parser.isIdle {
                state = .idle(deadline: deadline(now, after: keepAliveTimeout))
                // An idle kept-alive connection holds no request bytes, and at most a small buffer for the next.
                parser.clearIdleBuffer()
            }
            return timerActions()
        case .failed(let error):
            // RFC 9112 §2.2, §9.6: after a malformed message the framing is lost; answer and close.
            return close(with: .error(error), to: nil)
        }
    }

    /// The request of the `.handle` just returned, moved out (no copy): call it once, while performing that action.
    public mutating func takeRequest() -> HTTPRequest {
        guard let request = handedRequest.take() else { preconditionFailure("Invalid state: no request handed") }
        return request
    }

    /// The answer of the `.write` being performed, moved out: call it once per `.write`, in order.
    public mutating func takeWrite() -> HTTPConnectionWrite {
        guard let write = pendingWrite.take() else { preconditionFailure("Invalid state: no answer to write") }
        return write
    }

    /// The answer to the request being handled (given at once, or later after ``respondLater()``). `close` ends the
    /// connection after it whatever the request asked (a refused upgrade). Answers for a request no longer
    /// awaited do nothing.
    public mutating func respond(_ response: HTTPResponse, now: Instant, close: Bool = false)
        -> HTTPConnectionActions
    {
        guard case .answering(let request, let keepAlive, let deferred) = state else { return HTTPConnectionActions() }
        // Every answer goes through here: its actions are held inline (docs/benchmarks.md, "Static files").
        var actions = HTTPConnectionActions()
        if deferred { actions.append(.resumeReading) }
        guard keepAlive && !close && !closeAfterResponse else {
            actions.append(contentsOf: self.close(with: response, to: request))
            return actions
        }
        pendingWrite = HTTPConnectionWrite(response, to: request, keepAlive: true)
        actions.append(.write(keepAlive: true))
        // The next request's deadline starts when this one is answered.
        state = .reading(deadline: deadline(now, after: requestTimeout))
        if let timer = timerAction() { actions.append(timer) }
        return actions
    }

    /// The application will answer the request being handled later: reading pauses until it does.
    public mutating func respondLater() -> HTTPConnectionActions {
        guard case .answering(let request, let keepAlive, false) = state else { return HTTPConnectionActions() }
        state = .answering(request, keepAlive: keepAlive, deferred: true)
        return HTTPConnectionActions(.pauseReading)
    }

    /// The request being handled became a WebSocket or an event stream: the connection is theirs now. Returns the
    /// bytes received after that request (a WebSocket's first frames).
    public mutating func handOver() -> [UInt8] {
        state = .handedOver
        return parser.takeUnconsumedBytes()
    }

    /// The response queue drained after a ``HTTPConnectionAction/waitForDrain``.
    public mutating func drained(now: Instant) -> HTTPConnectionActions {
        guard pause == .drain else { return HTTPConnectionActions() }
        pause = .none
        takenThisIteration = 0
        if case .reading = state { state = .reading(deadline: deadline(now, after: requestTimeout)) }
        var actions = HTTPConnectionActions(.resumeReading)
        if let timer = timerAction() { actions.append(timer) }
        return actions
    }

    /// A new loop iteration began after a ``HTTPConnectionAction/yieldIteration``.
    public mutating func iterationStarted() -> HTTPConnectionActions {
        guard pause == .yield else { return HTTPConnectionActions() }
        pause = .none
        takenThisIteration = 0
        return HTTPConnectionActions(.resumeReading)
    }

    /// The owner's timer fired.
    public mutating func timerFired(now: Instant) -> HTTPConnectionActions {
        scheduledDeadline = .none  // the owner's timer is spent
        let deadline = nextCompactDeadline
        guard deadline != .none else { return HTTPConnectionActions() }
        guard CompactInstant(now) >= deadline else { return timerActions() }
        switch state {
        case .reading where !parser.isIdle:
            return close(with: .text(.requestTimeout, "408 Request Timeout\n"), to: nil)
        case .tlsHandshake, .reading, .idle:
            state = .closing
            return HTTPConnectionActions(.closeAfterFlush)
        case .answering, .closing, .handedOver:
            preconditionFailure("Invalid state: \(state)")  // nextDeadline is nil in these states
        }
    }

    /// The server shuts down gracefully: close now when nothing is in flight, else after the answer in progress.
    public mutating func shutdownRequested() -> HTTPConnectionActions {
        switch state {
        case .tlsHandshake, .idle:
            state = .closing
            return HTTPConnectionActions(.closeAfterFlush)
        case .reading where parser.isIdle:
            state = .closing
            return HTTPConnectionActions(.closeAfterFlush)
        case .reading, .answering:
            closeAfterResponse = true
            return HTTPConnectionActions()
        case .closing, .handedOver:
            return HTTPConnectionActions()
        }
    }

    // MARK: helpers

    private mutating func close(with response: HTTPResponse, to request: HTTPAnsweredRequest?)
        -> HTTPConnectionActions
    {
        state = .closing
        pendingWrite = HTTPConnectionWrite(response, to: request, keepAlive: false)
        return HTTPConnectionActions(.write(keepAlive: false), .closeAfterFlush)
    }

    /// `now` plus a timeout in nanoseconds.
    private func deadline(_ now: Instant, after timeout: Int64) -> CompactInstant {
        CompactInstant(now).advanced(byNanoseconds: timeout)
    }

    /// Tells the owner about a deadline earlier than the one its timer holds. A later one needs no action: the
    /// earlier timer fires, finds nothing due, and re-arms.
    private mutating func timerActions() -> HTTPConnectionActions {
        guard let timer = timerAction() else { return HTTPConnectionActions() }
        return HTTPConnectionActions(timer)
    }

    private mutating func timerAction() -> HTTPConnectionAction? {
        let next = nextCompactDeadline
        guard next != .none else { return nil }
        if scheduledDeadline != .none, scheduledDeadline <= next { return nil }
        scheduledDeadline = next
        return .scheduleTimer(next)
    }
}

@available(*, unavailable)
extension HTTPConnectionStateMachine: Sendable {}
