import CourtsideHTTP
import CourtsideWebSocket
import CourtsideWebSocketDeflate

/// One open WebSocket: the application's handle to send and close, and the glue that runs the protocol's state
/// machine over the connection (performing its actions: write, deliver, close, arm the timer).
///
/// Loop-confined: use it only on `eventLoop`'s thread. For a broadcast, use a `BroadcastChannel` (one encoding and
/// one compression per message, per-subscriber deflate variants, backpressure), or encode the frame once
/// (`WebSocketFrameEncoder.text(_:)`) and call `send(preEncodedFrame:)` on every socket: each queues the same buffer,
/// which `writev` sends without a copy.
///
/// **Backpressure.** Sends report a `WebSocketSendStatus` against the connection's outbound byte budget
/// (`HTTPServer.Configuration.webSocketSendBudgetBytes`). Nothing the application sends itself is dropped; a
/// channel's broadcast frames past the budget are, by the channel's slow-consumer policy.
///
/// The budget also holds the other way: every byte queued counts, pongs and the application's answers included.
/// Received frames are taken `framesPerStep` at a time; once the queue is past the budget the socket takes no more
/// frames and stops reading until the queue has drained, so a peer that sends without reading (a ping flood,
/// commands that each earn an error) fills its own kernel buffers, not the server's memory.
public final class WebSocket: ConnectionHandler {
    /// The request path (percent-decoded); empty after `webSocketDidOpen` when the handler does not keep it
    /// (`WebSocketHandler.keepsRequestTarget`). The whole upgrade request (headers, origin, offered subprotocols) is
    /// given to `WebSocketHandler.shouldAccept`; only the path and query are kept, so an idle socket stays small.
    public private(set) var path: String
    /// The request's query string, if any (nil after `webSocketDidOpen` when the handler does not keep it).
    public var query: String? { rarelySet?.query }
    /// The subprotocol chosen in `WebSocketHandler.shouldAccept`, if any.
    public var subprotocol: String? { rarelySet?.subprotocol }
    /// The negotiated permessage-deflate state (inflater, own deflater, place in a broadcast stream), or nil.
    /// The state machine holds the same object as its message extension.
    var deflate: PerMessageDeflateConnection? { rarelySet?.deflate }
    /// The query, the subprotocol and the deflate state, out of line and only when one is set: most sockets have
    /// none, and every idle socket would carry their 40 bytes (docs/benchmarks.md, "Idle memory").
    private var rarelySet: RarelySet?

    private final class RarelySet {
        let query: String?
        let subprotocol: String?
        let deflate: PerMessageDeflateConnection?

        init(query: String?, subprotocol: String?, deflate: PerMessageDeflateConnection?) {
            self.query = query
            self.subprotocol = subprotocol
            self.deflate = deflate
        }
    }
    let connection: Connection
    unowned let state: ServerLoopState
    private(set) var handler: (any WebSocketHandler)?
    private var machine: WebSocketConnectionStateMachine
    /// The channels this socket is subscribed to, with its position in each channel's list on this loop (so
    /// unsubscribing is O(1)). Empty, and unallocated, for most sockets.
    var subscriptions = BroadcastSubscriptions()
    /// How the machine's timer is performed: a loop timer, or, when it is only the idle ping's, a deadline the
    /// loop's sweep fires once it has passed (`sweep(now:)`), as the timer would have.
    private var machineTimer = MachineTimer.none

    private enum MachineTimer {
        case none
        case timer(TimerID)
        case sweep(CompactInstant)
    }
    // The flags follow `machineTimer` (9 bytes) to share its padding: fields are laid out in declaration order.
    private var finished = false
    /// Reading stopped because the queue passed the budget; resumed by `connectionDrained`.
    private var pausedForBudget = false
    /// True while a message from a received batch is being delivered and the machine was open when the batch began.
    /// The machine computes a whole read's actions at once, so by the time a message is delivered it may already have
    /// queued a close for a protocol error found later in the same read. The application's answer to that message
    /// was, on the wire, legal before the close frame, so it goes out directly, in order, ahead of the close frame
    /// (Autobahn 3.x/4.x expect the echo before the close).
    private var deliveringFromOpenBatch = false
    /// Reading stopped because this iteration's share of frames was taken; resumed by a timer next iteration
    /// (`TimerID.none` when not: 8 bytes, where an optional takes 16 here).
    private var yieldTimer = TimerID.none

    /// Received frames handled before the queue is checked against the budget again. Small enough that the
    /// answers to one step (64 frames, at most a few KiB each for an application's replies) overshoot the budget
    /// by little; large enough that a normal read is one step.
    static let framesPerStep = 64
    /// Steps one socket may take per loop iteration. Past them the rest waits for the next iteration (reading
    /// paused meanwhile), so a client that packs thousands of tiny frames into one read cannot hold the loop from
    /// every other connection on it (256 frames, each possibly answered, is well under a millisecond in release).
    static let stepsPerIteration = 4

    init(
        connection: Connection, state: ServerLoopState, handler: any WebSocketHandler,
        request: WebSocketUpgradeRequest, subprotocol: String?, deflate: PerMessageDeflateConnection? = nil,
        limits: WebSocketMessageLimits? = nil
    ) {
        self.connection = connection
        self.state = state
        self.handler = handler
        self.path = request.head.path
        let query = request.head.query
        rarelySet =
            query == nil && subprotocol == nil && deflate == nil
            ? nil : RarelySet(query: query, subprotocol: subprotocol, deflate: deflate)
        machine = WebSocketConnectionStateMachine(
            shared: state.webSocketConfiguration, messageExtension: deflate, now: connection.context.now)
        if let limits { machine.limits = limits }
    }

    /// The size limits on received messages, from the route's upgrade decision (or the server's
    /// `webSocket.maxMessageBytes`). Change them as the conversation moves on (a scorer socket allows commands
    /// once authenticated); a change applies from the next frame header.
    public var messageLimits: WebSocketMessageLimits {
        get { machine.limits }
        set { machine.limits = newValue }
    }

    /// The loop-confined context of the loop the socket lives on (timers, per-loop state).
    public var loopContext: LoopContext { connection.context }

    /// The loop the socket lives on: `eventLoop.execute` reaches it from any thread.
    public var eventLoop: EventLoop { connection.context.loop }

    /// Whether messages can still be sent (no close frame sent or received yet).
    public var isOpen: Bool { !finished && (machine.isOpen || deliveringFromOpenBatch) }

    /// Bytes queued and not yet taken by the kernel: compare with a budget to spot a slow consumer.
    public var bufferedBytes: Int { connection.bufferedBytes }

    /// The outbound byte budget of this connection (`HTTPServer.Configuration.webSocketSendBudgetBytes`).
    public var sendBudgetBytes: Int { state.configuration.webSocketSendBudgetBytes }

    /// The agreed permessage-deflate parameters, or nil when the connection does not compress.
    public var perMessageDeflate: PerMessageDeflateParameters? { deflate?.parameters }

    /// What zlib holds for this connection now (zero without deflate or before a stream was needed).
    public var deflateMemoryUsage: ZlibMemoryUsage { deflate?.memoryUsage ?? ZlibMemoryUsage() }

    /// The peer's address.
    public var remoteAddress: SocketAddress? { connection.remoteAddress }

    func start(leftover: [UInt8]) {
        connection.handler = self
        state.register(self)
        perform(machine.start(now: loopContext.now))
        handler?.webSocketDidOpen(self)
        if let handler, !handler.keepsRequestTarget { forgetRequestTarget() }
        if !leftover.isEmpty, !finished {
            receive(leftover, now: loopContext.now)
        }
    }

    /// Drops the path and query once the handler has had them (`WebSocketHandler.keepsRequestTarget`): the box
    /// goes too unless a subprotocol or deflate state needs it.
    private func forgetRequestTarget() {
        path = ""
        guard let kept = rarelySet, kept.query != nil else { return }
        rarelySet =
            kept.subprotocol == nil && kept.deflate == nil
            ? nil : RarelySet(query: nil, subprotocol: kept.subprotocol, deflate: kept.deflate)
    }

    // MARK: sending

    /// Sends one message as one frame, compressed when permessage-deflate was negotiated and it pays.
    @discardableResult
    public func send(_ message: WebSocketMessage) -> WebSocketSendStatus {
        eventLoop.assertInEventLoop()
        guard isOpen else { return .closed }
        return queueing {
            if deliveringFromOpenBatch && !machine.isOpen {
                connection.write(deflate?.frame(for: message) ?? WebSocketFrameEncoder.message(message))
            } else {
                perform(machine.send(message))
            }
        }
    }

    @discardableResult
    public func send(text: String) -> WebSocketSendStatus {
        send(.text(text))
    }

    @discardableResult
    public func send(binary: [UInt8]) -> WebSocketSendStatus {
        send(.binary(binary))
    }

    /// Queues bytes that already are one or more complete server frames (unmasked, from `WebSocketFrameEncoder`).
    /// The buffer is shared, not copied. Not queued once the socket is closing. Never compressed: on a deflate
    /// connection a plain frame is always valid (RSV1 is per message, RFC 7692 §6); a `BroadcastChannel`
    /// chooses compressed variants per subscriber.
    @discardableResult
    public func send(preEncodedFrame bytes: [UInt8]) -> WebSocketSendStatus {
        eventLoop.assertInEventLoop()
        guard isOpen else { return .closed }
        return queueing {
            if deliveringFromOpenBatch && !machine.isOpen {
                connection.write(bytes)
            } else {
                perform(machine.sendFrame(bytes))
            }
        }
    }

    /// Queues a message with `body` and says where it stands against the budget: over it when the queue passes
    /// the budget and was not empty (a message larger than the budget alone still goes out).
    private func queueing(_ body: () -> Void) -> WebSocketSendStatus {
        let before = connection.bufferedBytes
        let blocked = connection.isWriteBlocked
        body()
        if before > 0 && connection.bufferedBytes > sendBudgetBytes { return .overBudget }
        return blocked ? .queued : .sent
    }

    /// Whether the socket counts as open for its server (`ServerLoopState.openWebSockets`): started and not
    /// finished. It is the connection's handler only once started.
    var isRegistered: Bool { !finished }

    /// Whether broadcast frames may be queued (a close frame was neither sent nor received).
    var acceptsBroadcastFrames: Bool { !finished && machine.isOpen }

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
        cancelMachineTimer()
        // The idle ping's deadline is left to the loop's sweep (`ServerLoopState.sweepIdleSockets`): a timer per
        // idle socket cost a closure, a heap entry and a dictionary slot each, for a deadline that may be late.
        if machine.nextDeadlineIsIdlePing {
            machineTimer = .sweep(CompactInstant(deadline))
            state.sweepIdleSocketsPeriodically()
            return
        }
        // A strong capture (no weak side table per socket): `finish` cancels the timer, so it never outlives us.
        machineTimer = .timer(
            loopContext.scheduleTimer(at: deadline) { context in
                self.machineTimer = .none
                self.perform(self.machine.timerFired(now: context.now))
            })
    }

    private func cancelMachineTimer() {
        if case .timer(let timer) = machineTimer { loopContext.cancelTimer(timer) }
        machineTimer = .none
    }

    /// Whether the loop's sweep should call `sweep(now:)`: cheap, asked of every open socket.
    func isIdlePingDue(now: ContinuousClock.Instant) -> Bool {
        guard !finished, case .sweep(let deadline) = machineTimer else { return false }
        return deadline <= CompactInstant(now)
    }

    /// Runs the machine's timer when the loop's sweep finds its idle-ping deadline passed (no timer of its own is
    /// armed then).
    func sweep(now: ContinuousClock.Instant) {
        guard isIdlePingDue(now: now) else { return }
        machineTimer = .none  // as a timer that fired: the machine re-arms what comes next
        perform(machine.timerFired(now: now))
    }

    private func finish(_ closure: WebSocketClosure) {
        guard !finished else { return }
        finished = true
        cancelMachineTimer()
        if yieldTimer != .none { loopContext.cancelTimer(yieldTimer) }
        yieldTimer = .none
        state.unregister(self)
        for subscription in subscriptions.newestFirst { subscription.channel.remove(self) }
        subscriptions = BroadcastSubscriptions()
        deflate?.connectionClosed()  // zlib streams freed now, whoever still holds the socket
        let handler = self.handler
        self.handler = nil
        handler?.webSocketDidClose(self, closure: closure)
    }

    // MARK: ConnectionHandler (internal plumbing)

    func connection(_ connection: Connection, received bytes: UnsafeRawBufferPointer, context: LoopContext) {
        guard !finished else { return }
        receive(bytes, now: context.now)
    }

    func connectionDrained(_ connection: Connection, context: LoopContext) {
        guard !finished else { return }
        if pausedForBudget {
            pausedForBudget = false
            receivePending(now: context.now)
        }
        guard !finished else { return }
        handler?.webSocketDidDrain(self)
    }

    // MARK: receiving against the budget

    private func receive(_ bytes: some Collection<UInt8>, now: ContinuousClock.Instant) {
        let wasOpen = machine.isOpen
        perform(machine.bytesReceived(bytes, now: now, frameLimit: Self.framesPerStep), batchStartedOpen: wasOpen)
        receivePending(now: now)
    }

    /// Takes buffered frames a step at a time while the queue is within budget; past it, stops reading until the
    /// queue drains (the frames not taken stay in the machine's decoder).
    ///
    /// Reading resumes only when nothing is left to take: frames waiting in the decoder are taken first.
    private func receivePending(now: ContinuousClock.Instant) {
        var steps = 1  // the caller took one
        while !finished {
            if connection.bufferedBytes > sendBudgetBytes {
                pausedForBudget = true
                connection.pauseReading()
                connection.notifyWhenDrained()
                return
            }
            guard machine.hasPendingFrames else {
                if yieldTimer == .none { connection.resumeReading() }
                return
            }
            if steps == Self.stepsPerIteration {
                yieldUntilNextIteration()
                return
            }
            steps += 1
            let wasOpen = machine.isOpen
            perform(machine.receivePending(now: now, frameLimit: Self.framesPerStep), batchStartedOpen: wasOpen)
        }
    }

    private func yieldUntilNextIteration() {
        connection.pauseReading()
        guard yieldTimer == .none else { return }
        // A timer due now runs in the next iteration, after every other ready connection had its turn.
        yieldTimer = loopContext.scheduleTimer(at: loopContext.now) { context in
            self.yieldTimer = .none
            guard !self.finished, !self.pausedForBudget else { return }
            let wasOpen = self.machine.isOpen
            self.perform(
                self.machine.receivePending(now: context.now, frameLimit: Self.framesPerStep),
                batchStartedOpen: wasOpen)
            self.receivePending(now: context.now)
        }
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
