import CourtsideWebSocket

/// One open WebSocket: the application's handle to send and close, and the glue that runs the protocol's state
/// machine over the connection (performing its actions: write, deliver, close, arm the timer).
///
/// Loop-confined: use it only on `eventLoop`'s thread. For a broadcast, encode the frame once
/// (`WebSocketFrameEncoder.text(_:)`) and call `send(preEncodedFrame:)` on every socket: each queues the same buffer,
/// which `writev` sends without a copy.
public final class WebSocket: ConnectionHandler {
    /// The request path (percent-decoded). The whole upgrade request (headers, origin, offered subprotocols) is
    /// given to `WebSocketHandler.shouldAccept`; only the path and query are kept, so an idle socket stays small.
    public let path: String
    /// The request's query string, if any.
    public let query: String?
    /// The subprotocol chosen in `WebSocketHandler.shouldAccept`, if any.
    public let subprotocol: String?
    private let connection: Connection
    private unowned let state: ServerLoopState
    private var handler: (any WebSocketHandler)?
    private var machine: WebSocketConnectionStateMachine
    private var timer: TimerID?
    private var finished = false
    /// True while a message from a received batch is being delivered and the machine was open when the batch began.
    /// The machine computes a whole read's actions at once, so by the time a message is delivered it may already have
    /// queued a close for a protocol error found later in the same read. The application's answer to that message
    /// was, on the wire, legal before the close frame, so it goes out directly, in order, ahead of the close frame
    /// (Autobahn 3.x/4.x expect the echo before the close).
    private var deliveringFromOpenBatch = false

    init(
        connection: Connection, state: ServerLoopState, handler: any WebSocketHandler,
        request: WebSocketUpgradeRequest, subprotocol: String?
    ) {
        self.connection = connection
        self.state = state
        self.handler = handler
        self.path = request.head.path
        self.query = request.head.query
        self.subprotocol = subprotocol
        machine = WebSocketConnectionStateMachine(
            configuration: state.configuration.webSocket, now: connection.context.now)
    }

    /// The loop-confined context of the loop the socket lives on (timers, per-loop state).
    public var loopContext: LoopContext { connection.context }

    /// The loop the socket lives on: `eventLoop.execute` reaches it from any thread.
    public var eventLoop: EventLoop { connection.context.loop }

    /// Whether messages can still be sent (no close frame sent or received yet).
    public var isOpen: Bool { !finished && (machine.isOpen || deliveringFromOpenBatch) }

    /// Bytes queued and not yet taken by the kernel: compare with a budget to spot a slow consumer.
    public var bufferedBytes: Int { connection.bufferedBytes }

    /// The peer's address.
    public var remoteAddress: SocketAddress? { connection.remoteAddress }

    func start(leftover: [UInt8]) {
        connection.handler = self
        state.register(self)
        perform(machine.start(now: loopContext.now))
        handler?.webSocketDidOpen(self)
        if !leftover.isEmpty, !finished {
            let wasOpen = machine.isOpen
            perform(machine.bytesReceived(leftover, now: loopContext.now), batchStartedOpen: wasOpen)
        }
    }

    // MARK: sending

    /// Sends one message as one frame.
    public func send(_ message: WebSocketMessage) {
        eventLoop.assertInEventLoop()
        if deliveringFromOpenBatch && !machine.isOpen {
            connection.write(WebSocketFrameEncoder.message(message))
        } else {
            perform(machine.send(message))
        }
    }

    public func send(text: String) {
        send(.text(text))
    }

    public func send(binary: [UInt8]) {
        send(.binary(binary))
    }

    /// Queues bytes that already are one or more complete server frames (unmasked, from `WebSocketFrameEncoder`).
    /// The buffer is shared, not copied. Dropped once the socket is closing.
    public func send(preEncodedFrame bytes: [UInt8]) {
        eventLoop.assertInEventLoop()
        guard isOpen else { return }
        connection.write(bytes)
    }

    /// Starts the close handshake (RFC 6455 §7.1.2); the transport closes when the peer answers or after the
    /// configured close timeout.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        eventLoop.assertInEventLoop()
        perform(machine.close(code: code, reason: reason, now: loopContext.now))
    }

    // MARK: performing the state machine's actions

    private func perform(_ actions: [WebSocketAction], batchStartedOpen: Bool = false) {
        for action in actions {
            switch action {
            case .deliver(let message):
                guard !finished else { continue }
                let outer = deliveringFromOpenBatch
                deliveringFromOpenBatch = batchStartedOpen
                handler?.webSocket(self, didReceive: message)
                deliveringFromOpenBatch = outer
            case .write(let bytes):
                connection.write(bytes)
            case .closeTransport(let closure):
                finish(closure)
                connection.closeAfterFlush()
            case .scheduleTimer(let deadline):
                arm(at: deadline)
            }
        }
    }

    private func arm(at deadline: ContinuousClock.Instant) {
        guard !finished else { return }
        if let timer { loopContext.cancelTimer(timer) }
        // A strong capture (no weak side table per socket): `finish` cancels the timer, so it never outlives us.
        timer = loopContext.scheduleTimer(at: deadline) { context in
            self.timer = nil
            self.perform(self.machine.timerFired(now: context.now))
        }
    }

    private func finish(_ closure: WebSocketClosure) {
        guard !finished else { return }
        finished = true
        if let timer { loopContext.cancelTimer(timer) }
        timer = nil
        state.unregister(self)
        let handler = self.handler
        self.handler = nil
        handler?.webSocketDidClose(self, closure: closure)
    }

    // MARK: ConnectionHandler (internal plumbing)

    func connection(_ connection: Connection, received bytes: UnsafeRawBufferPointer, context: LoopContext) {
        guard !finished else { return }
        let wasOpen = machine.isOpen
        perform(machine.bytesReceived(bytes, now: context.now), batchStartedOpen: wasOpen)
    }

    func connectionDrained(_ connection: Connection, context: LoopContext) {
        guard !finished else { return }
        handler?.webSocketDidDrain(self)
    }

    func connectionInputClosed(_ connection: Connection, context: LoopContext) {
        perform(machine.transportClosed())
        connection.closeAfterFlush()
    }

    func connectionShouldShutDown(_ connection: Connection, context: LoopContext) {
        // RFC 6455 §7.4.1: 1001, the server is going away. The peer's answer (or the close timeout, or the
        // server's shutdown deadline) closes the transport.
        close(code: .goingAway, reason: "server shutting down")
    }

    func connectionClosed(_ connection: Connection, context: LoopContext) {
        perform(machine.transportClosed())
        finish(.transportClosedByPeer)
    }
}

@available(*, unavailable)
extension WebSocket: Sendable {}
