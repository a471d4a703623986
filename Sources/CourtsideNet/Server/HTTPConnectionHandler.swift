import CourtsideHTTP
import CourtsideWebSocket
import CourtsideWebSocketDeflate

/// HTTP/1.1 on one connection: the I/O shell of an `HTTPConnectionStateMachine`. It feeds the machine what the
/// connection reports (bytes, drains, timers, shutdown), routes each request the machine hands it, and performs the
/// machine's actions (write, pause and resume reading, wait for a drain, yield the iteration, arm the timer, close).
/// An upgrade or an event stream takes the connection over. Loop-confined.
///
/// Every decision (deadlines, keep-alive, pipelining order, back-pressure, fairness, shutdown) is the machine's, and
/// is tested there as traces (docs/http.md "The connection lifecycle").
final class HTTPConnectionHandler: ConnectionHandler {
    let connection: Connection
    private unowned let state: ServerLoopState
    private var machine: HTTPConnectionStateMachine
    private var timer: TimerID?
    private var yieldTimer: TimerID?
    /// This handler is done with the connection (closing, or handed over): its timers must not fire.
    private var finished = false

    init(connection: Connection, state: ServerLoopState, refusal: HTTPResponse? = nil) {
        self.connection = connection
        self.state = state
        machine = HTTPConnectionStateMachine(
            configuration: state.server.configuration.httpConnection, secure: state.server.configuration.tls != nil,
            refusal: refusal, now: connection.context.now)
    }

    private var context: LoopContext { connection.context }

    func start() {
        perform(machine.start(now: context.now))
    }

    /// The TLS layer finished its handshake.
    func tlsHandshakeCompleted() {
        guard !finished else { return }
        perform(machine.tlsHandshakeCompleted(now: context.now))
        pump()  // a request that arrived with the handshake's last flight
    }

    // MARK: ConnectionHandler

    func connection(_ connection: Connection, received bytes: UnsafeRawBufferPointer, context: LoopContext) {
        guard !finished else { return }
        perform(machine.bytesReceived(bytes, now: context.now))
        pump()
    }

    func connectionDrained(_ connection: Connection, context: LoopContext) {
        guard !finished else { return }
        perform(machine.drained(now: context.now))
        pump()
    }

    func connectionShouldShutDown(_ connection: Connection, context: LoopContext) {
        guard !finished else { return }
        perform(machine.shutdownRequested())
    }

    func connectionClosed(_ connection: Connection, context: LoopContext) {
        finish()
    }

    // MARK: performing the machine's actions

    /// Takes requests one at a time, each answered (or deferred, or handed over) before the next: pipelined requests
    /// are answered in order by construction.
    private func pump() {
        var handled = true
        while handled && !finished {
            let actions = machine.nextRequest(now: context.now, queuedBytes: connection.bufferedBytes)
            handled = actions.containsHandle
            perform(actions)
        }
    }

    private func perform(_ actions: HTTPConnectionActions) {
        // The actions are plain values; a request or an answer is moved out of the machine as its action is performed.
        for action in actions {
            switch action {
            case .handle:
                handle(machine.takeRequest())
            case .write:
                write(machine.takeWrite())
            case .pauseReading:
                connection.pauseReading()
            case .resumeReading:
                connection.resumeReading()
            case .waitForDrain:
                connection.pauseReading()
                connection.notifyWhenDrained()
            case .yieldIteration:
                connection.pauseReading()
                yieldUntilNextIteration()
            case .scheduleTimer(let deadline):
                if let instant = deadline.instant { arm(at: instant) }
            case .closeAfterFlush:
                finish()
                connection.closeAfterFlush()
            }
        }
    }

    private func write(_ write: HTTPConnectionWrite) {
        // `server.configuration`, a `let`, read field by field: ServerLoopState's `configuration` returns a copy of
        // it all, and a method called on it copied it too (retains of every field, per request).
        let response = HTTPServer.Configuration.decorate(
            write.response, path: write.request?.path, with: state.server.configuration.responseHeaders)
        // A large body (a static file) is queued as its own shared buffer: `writev` sends both.
        let parts = HTTPResponseEncoder.encodeParts(
            response, method: write.request?.method ?? .GET, keepAlive: write.keepAlive,
            requestVersion: write.request?.version ?? .http1_1, date: state.date)
        connection.write(parts.head)
        connection.write(parts.body)
    }

    // MARK: routing

    private func handle(_ request: HTTPRequest) {
        let routeContext = RouteContext(
            loopContext: context, remoteAddress: connection.remoteAddress,
            isSecure: state.server.configuration.tls != nil)
        let now = context.now
        switch state.server.router.route(request, context: routeContext) {
        case .webSocket(let handler) where state.isShuttingDown:
            // A long-lived stream started now would only be cut at the shutdown deadline.
            handler.webSocketWasRefused(remoteAddress: connection.remoteAddress)
            refuseWhileShuttingDown(now: now)
        case .eventStream(let handler) where state.isShuttingDown:
            handler.eventStreamWasRefused()
            refuseWhileShuttingDown(now: now)
        case .respond(let response):
            perform(machine.respond(response, now: now))
        case .staticFiles:
            // Chained on the `let` in place: bound to a local, the whole file server (its strings and catalog) was
            // copied and released per request.
            let response =
                state.server.configuration.staticFiles?.respond(to: request.head).response
                ?? StaticFileResult.notFound.response
            perform(machine.respond(response, now: now))
        case .webSocket(let handler):
            upgrade(request, to: handler)
        case .eventStream(let handler):
            startEventStream(request, handler: handler)
        case .deferred(let start):
            respondLater(start)
        }
    }

    private func refuseWhileShuttingDown(now: ContinuousClock.Instant) {
        perform(
            machine.respond(
                .text(.serviceUnavailable, "503 Service Unavailable: shutting down\n"), now: now, close: true))
    }

    /// Runs the application's `start`; an answer given inside it is written at once, a later one resumes the
    /// connection. Only the first call counts (`Route.deferred`).
    private func respondLater(_ start: (@escaping (HTTPResponse) -> Void) -> Void) {
        var starting = true
        var answered = false
        var synchronous: HTTPResponse?
        start { [self] response in
            context.loop.assertInEventLoop()
            guard !answered else { return }
            answered = true
            if starting {
                synchronous = response
                return
            }
            guard !finished else { return }
            perform(machine.respond(response, now: context.now))
            pump()
        }
        starting = false
        if let synchronous {
            perform(machine.respond(synchronous, now: context.now))
        } else {
            perform(machine.respondLater())
        }
    }

    // MARK: hand-over

    private func upgrade(_ request: HTTPRequest, to handler: any WebSocketHandler) {
        let preferences = state.server.configuration.perMessageDeflate
        var deflate: PerMessageDeflateConnection?
        var limits: WebSocketMessageLimits?
        let outcome = WebSocketHandshake.accept(request.head) { upgradeRequest in
            let decision = handler.shouldAccept(upgradeRequest)
            if case .accept(_, _, let routeLimits) = decision { limits = routeLimits }
            // The server negotiates permessage-deflate (RFC 7692 §7.1) unless the handler answered extensions
            // itself; no acceptable offer means no extension, and the connection proceeds without it.
            guard case .accept(let subprotocol, nil, _) = decision, let preferences,
                let parameters = preferences.negotiate(upgradeRequest.extensionOffers)
            else { return decision }
            deflate = PerMessageDeflateConnection(parameters: parameters, configuration: preferences)
            return .accept(subprotocol: subprotocol, extensions: parameters.responseHeaderValue, limits: limits)
        }
        switch outcome {
        case .reject(let response, _):
            handler.webSocketWasRefused(remoteAddress: connection.remoteAddress)
            perform(machine.respond(response, now: context.now, close: true))
        case .upgrade(let upgradeRequest, let subprotocol, let extensions):
            let leftover = machine.handOver()
            // The 101 from a head prepared once per path (`UpgradeHeadCache`), with the server's headers.
            connection.write(
                state.upgradeHeads.encode(
                    upgradeRequest, path: request.head.path, subprotocol: subprotocol, extensions: extensions,
                    date: state.date, configuration: state.server.configuration))
            finish()
            let socket = WebSocket(
                connection: connection, state: state, handler: handler, request: upgradeRequest,
                subprotocol: subprotocol, deflate: deflate, limits: limits)
            socket.start(leftover: leftover)
        }
    }

    private func startEventStream(_ request: HTTPRequest, handler: any EventStreamHandler) {
        _ = machine.handOver()  // nothing more is read from an event-stream connection
        finish()
        let stream = EventStream(connection: connection, state: state, handler: handler, requestHead: request.head)
        stream.start()
    }

    private func finish() {
        finished = true
        if let timer { context.cancelTimer(timer) }
        timer = nil
        if let yieldTimer { context.cancelTimer(yieldTimer) }
        yieldTimer = nil
    }

    // MARK: timers (the loop's timer heap; the machine decides what they mean)

    private func arm(at deadline: ContinuousClock.Instant) {
        guard !finished else { return }
        if let timer { context.cancelTimer(timer) }
        // A strong capture (no weak side table per connection): `finish` cancels it.
        timer = context.scheduleTimer(at: deadline) { [self] context in
            timer = nil
            perform(machine.timerFired(now: context.now))
        }
    }

    private func yieldUntilNextIteration() {
        guard yieldTimer == nil else { return }
        // A timer due now runs in the next iteration, after every other ready connection had its turn.
        yieldTimer = context.scheduleTimer(at: context.now) { [self] _ in
            yieldTimer = nil
            perform(machine.iterationStarted())
            pump()
        }
    }
}

@available(*, unavailable)
extension HTTPConnectionHandler: Sendable {}
