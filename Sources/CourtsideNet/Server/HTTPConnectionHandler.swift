import CourtsideHTTP
import CourtsideWebSocket
import CourtsideWebSocketDeflate

/// HTTP/1.1 on one connection: parses requests, routes them, writes the responses in request order (each request is
/// answered before the next one is parsed, so pipelined requests are answered in order by construction), keeps the
/// connection alive or closes it, and hands the connection over to a WebSocket or an event stream on request.
///
/// Deadlines (one timer, re-armed lazily): a TLS handshake must finish within `tlsHandshakeTimeout`; a request,
/// once started (or from the moment of connecting), must be complete within `requestTimeout` (the slowloris guard:
/// trickling bytes does not extend it), else 408 and close; between requests the connection may idle for
/// `keepAliveTimeout`, then it is closed quietly. Loop-confined.
final class HTTPConnectionHandler: ConnectionHandler {
    private enum Phase: Equatable {
        case tlsHandshake
        /// Reading a request (or waiting for the first one on a new connection).
        case request
        /// Between requests on a kept-alive connection.
        case keepAlive
        /// A `Route.deferred` answer is pending; reading is paused until it is written.
        case awaitingResponse
        /// The connection now belongs to a WebSocket or an event stream, or is closing.
        case handedOver
    }

    let connection: Connection
    private unowned let state: ServerLoopState
    private var parser: HTTPRequestParser
    private var phase: Phase
    private var deadline: ContinuousClock.Instant
    private var timer: TimerID?
    private var timerDeadline: ContinuousClock.Instant?
    /// Close after the response in flight (graceful shutdown asked while a request was being read).
    private var closeAfterResponse = false
    /// Stopped parsing because too many response bytes are queued; resumed when the queue drains.
    private var waitingForDrain = false

    init(connection: Connection, state: ServerLoopState) {
        self.connection = connection
        self.state = state
        self.parser = HTTPRequestParser(limits: state.configuration.parserLimits)
        let secure = state.configuration.tls != nil
        phase = secure ? .tlsHandshake : .request
        let timeout = secure ? state.configuration.tlsHandshakeTimeout : state.configuration.requestTimeout
        deadline = connection.context.now + timeout
    }

    private var context: LoopContext { connection.context }
    private var configuration: HTTPServer.Configuration { state.configuration }

    func start() {
        armTimer()
    }

    /// The TLS layer finished its handshake: the first request's deadline starts now.
    func tlsHandshakeCompleted() {
        guard phase == .tlsHandshake else { return }
        phase = .request
        deadline = context.now + configuration.requestTimeout
        armTimer()
    }

    // MARK: ConnectionHandler

    func connection(_ connection: Connection, received bytes: UnsafeRawBufferPointer, context: LoopContext) {
        guard phase != .handedOver else { return }
        if phase == .keepAlive {
            phase = .request
            deadline = context.now + configuration.requestTimeout
        }
        parser.feed(bytes)
        processRequests()
    }

    func connectionDrained(_ connection: Connection, context: LoopContext) {
        guard waitingForDrain else { return }
        waitingForDrain = false
        connection.resumeReading()
        processRequests()
    }

    func connectionShouldShutDown(_ connection: Connection, context: LoopContext) {
        guard phase != .handedOver else { return }
        if phase == .awaitingResponse {
            closeAfterResponse = true
        } else if phase == .keepAlive || phase == .tlsHandshake || (phase == .request && parser.isIdle) {
            finish()
            connection.closeAfterFlush()
        } else {
            closeAfterResponse = true
        }
    }

    func connectionClosed(_ connection: Connection, context: LoopContext) {
        cancelTimer()
        phase = .handedOver
    }

    // MARK: requests

    private func processRequests() {
        var completedOne = false
        while phase == .request || phase == .keepAlive, connection.isOpen {
            if connection.bufferedBytes > configuration.maxQueuedResponseBytes {
                // The client pipelines faster than it reads: stop until what we sent is read (backpressure).
                waitingForDrain = true
                connection.pauseReading()
                connection.notifyWhenDrained()
                return
            }
            switch parser.next() {
            case .request(let request):
                completedOne = true
                handle(request)
            case .needMoreData:
                settleAfterBatch(completedOne: completedOne)
                return
            case .failed(let error):
                // RFC 9112 §2.2/§9.6: after a malformed message the framing is lost; answer and close.
                respond(.error(error), to: nil, keepAlive: false)
                return
            }
        }
    }

    /// Chooses the next deadline once everything buffered has been parsed.
    private func settleAfterBatch(completedOne: Bool) {
        guard phase == .request || phase == .keepAlive else { return }
        if parser.isIdle {
            phase = .keepAlive
            deadline = context.now + configuration.keepAliveTimeout
            // Release the parser's buffer: an idle keep-alive connection should hold no request bytes.
            parser = HTTPRequestParser(limits: configuration.parserLimits)
        } else if completedOne {
            phase = .request
            deadline = context.now + configuration.requestTimeout
        }
        armTimer()
    }

    private func handle(_ request: HTTPRequest) {
        let routeContext = RouteContext(
            loopContext: context, remoteAddress: connection.remoteAddress, isSecure: configuration.tls != nil)
        let route = state.server.router.route(request, context: routeContext)
        let keepAlive = request.head.keepAlive && !closeAfterResponse && !state.isShuttingDown
        switch route {
        case .webSocket where state.isShuttingDown, .eventStream where state.isShuttingDown:
            // A long-lived stream started now would only be cut at the shutdown deadline.
            respond(
                .text(.serviceUnavailable, "503 Service Unavailable: shutting down\n"), to: request.head,
                keepAlive: false)
        case .respond(let response):
            respond(response, to: request.head, keepAlive: keepAlive)
        case .staticFiles:
            let response =
                configuration.staticFiles?.respond(to: request.head).response ?? StaticFileResult.notFound.response
            respond(response, to: request.head, keepAlive: keepAlive)
        case .webSocket(let handler):
            upgrade(request, to: handler)
        case .eventStream(let handler):
            startEventStream(request, handler: handler)
        case .deferred(let start):
            respondLater(to: request.head, keepAlive: keepAlive, start: start)
        }
    }

    /// Pauses the connection until the application answers; an answer given synchronously inside `start` is
    /// written at once and the caller's parsing loop goes on.
    private func respondLater(
        to head: HTTPRequestHead, keepAlive: Bool, start: (@escaping (HTTPResponse) -> Void) -> Void
    ) {
        phase = .awaitingResponse
        cancelTimer()
        connection.pauseReading()
        var starting = true
        start { [self] response in
            context.loop.assertInEventLoop()
            guard phase == .awaitingResponse, connection.isOpen else { return }
            phase = .request
            deadline = context.now + configuration.requestTimeout
            connection.resumeReading()
            let stayOpen = keepAlive && !closeAfterResponse && !state.isShuttingDown
            respond(response, to: head, keepAlive: stayOpen)
            if !starting && stayOpen {
                processRequests()
            }
        }
        starting = false
    }

    /// Writes a response; without keep-alive the connection closes once it is flushed.
    private func respond(_ response: HTTPResponse, to head: HTTPRequestHead?, keepAlive: Bool) {
        let bytes = HTTPResponseEncoder.encode(
            configuration.decorate(response, path: head?.path), method: head?.method ?? .GET, keepAlive: keepAlive,
            requestVersion: head?.version ?? .http1_1,
            date: state.date)
        connection.write(bytes)
        if !keepAlive {
            finish()
            connection.closeAfterFlush()
        }
    }

    // MARK: hand-over

    private func upgrade(_ request: HTTPRequest, to handler: any WebSocketHandler) {
        var deflate: PerMessageDeflateConnection?
        let outcome = WebSocketHandshake.negotiate(request.head) { upgradeRequest in
            let decision = handler.shouldAccept(upgradeRequest)
            // The server negotiates permessage-deflate (RFC 7692 §7.1) unless the handler answered extensions
            // itself; no acceptable offer means no extension, and the connection proceeds without it.
            guard case .accept(let subprotocol, nil) = decision, let preferences = configuration.perMessageDeflate,
                let parameters = preferences.negotiate(upgradeRequest.extensionOffers)
            else { return decision }
            deflate = PerMessageDeflateConnection(parameters: parameters, configuration: preferences)
            return .accept(subprotocol: subprotocol, extensions: parameters.responseHeaderValue)
        }
        switch outcome {
        case .reject(let response, _):
            respond(response, to: request.head, keepAlive: false)
        case .upgrade(let upgradeRequest, let response, let subprotocol):
            let leftover = parser.takeUnconsumedBytes()
            connection.write(
                HTTPResponseEncoder.head(
                    configuration.decorate(response, path: request.head.path), framing: .none, keepAlive: true,
                    date: state.date))
            finish()
            let socket = WebSocket(
                connection: connection, state: state, handler: handler, request: upgradeRequest,
                subprotocol: subprotocol, deflate: deflate)
            socket.start(leftover: leftover)
        }
    }

    private func startEventStream(_ request: HTTPRequest, handler: any EventStreamHandler) {
        _ = parser.takeUnconsumedBytes()  // nothing more is read from an event-stream connection
        finish()
        let stream = EventStream(connection: connection, state: state, handler: handler, requestHead: request.head)
        stream.start()
    }

    /// This handler is done with the connection (closing, or handed over): its timer must not fire.
    private func finish() {
        phase = .handedOver
        cancelTimer()
    }

    // MARK: timer

    private func armTimer() {
        guard phase != .handedOver else { return }
        if let timerDeadline, timerDeadline <= deadline { return }  // fires first, then re-arms for `deadline`
        cancelTimer()
        timerDeadline = deadline
        // A strong capture (no weak side table per connection): `finish` and `connectionClosed` cancel it.
        timer = context.scheduleTimer(at: deadline) { context in
            self.timerFired(now: context.now)
        }
    }

    private func cancelTimer() {
        if let timer { context.cancelTimer(timer) }
        timer = nil
        timerDeadline = nil
    }

    private func timerFired(now: ContinuousClock.Instant) {
        timer = nil
        timerDeadline = nil
        guard phase != .handedOver else { return }
        guard now >= deadline else {
            armTimer()
            return
        }
        switch phase {
        case .request where !parser.isIdle:
            respond(.text(.requestTimeout, "408 Request Timeout\n"), to: nil, keepAlive: false)
        case .awaitingResponse:
            break  // the application answers; no request deadline runs meanwhile
        case .request, .keepAlive, .tlsHandshake, .handedOver:
            finish()
            connection.closeAfterFlush()
        }
    }
}

@available(*, unavailable)
extension HTTPConnectionHandler: Sendable {}
