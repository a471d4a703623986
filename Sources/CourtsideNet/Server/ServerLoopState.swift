import CLinux
import CourtsideHTTP
import CourtsideWebSocket
import Glibc

/// One server's state on one loop: its listener, how many connections and WebSockets are open, and a cached `Date`
/// header. Loop-confined.
///
/// The connections themselves are found in the loop's fd table (every open connection is registered there, owned
/// by this state), not in dictionaries of its own: those cost about 50 bytes per idle connection for what only
/// shutdown and a broadcast's `forEachLoop` enumerate (docs/benchmarks.md, "Idle memory").
final class ServerLoopState: ConnectionOwner {
    let server: HTTPServer
    let context: LoopContext
    private(set) var startError: NetError?
    private var listener: Listener?
    /// Connections accepted and not yet closed.
    private var connectionCount = 0
    /// WebSockets registered (opened) and not yet unregistered (finished).
    private var webSocketCount = 0
    private var dateCache = HTTPDateCache()
    /// The 101 head prepared for the last WebSocket path upgraded here (`HTTPConnectionHandler.upgrade`).
    var upgradeHeads = UpgradeHeadCache()
    private(set) var isShuttingDown = false
    private var shutdownCompletion: (() -> Void)?
    private var forceCloseTimer: TimerID?
    /// The sweep of idle WebSockets' ping deadlines, while any is open (`sweepIdleSocketsPeriodically`).
    private var sweepTimer: TimerID?
    /// The WebSocket configuration, boxed once for every socket of this loop.
    let webSocketConfiguration: WebSocketConnectionStateMachine.ConfigurationBox

    init(server: HTTPServer, context: LoopContext) {
        self.server = server
        self.context = context
        webSocketConfiguration = .init(server.configuration.webSocket)
        super.init()
    }

    var configuration: HTTPServer.Configuration { server.configuration }

    /// The `Date` header value for now (formatted at most once per second per loop).
    var date: String {
        dateCache.string(epochSeconds: time(nil))
    }

    /// This server's open connections on this loop, from the fd table.
    private var connections: [Connection] {
        var found: [Connection] = []
        forEachConnection { found.append($0) }
        return found
    }

    /// Calls `body` with each of this server's open connections on this loop (it must not open or close any).
    private func forEachConnection(_ body: (Connection) -> Void) {
        context.forEachRegisteredHandler { handler in
            if let connection = handler as? Connection, connection.owner === self { body(connection) }
        }
    }

    /// This server's WebSockets on this loop that have not finished (registered and not unregistered; one may have
    /// sent its close frame, and then answers sends with `.closed`).
    var openWebSockets: [WebSocket] {
        guard webSocketCount > 0 else { return [] }
        var found: [WebSocket] = []
        forEachConnection { connection in
            if let socket = connection.handler as? WebSocket, socket.isRegistered { found.append(socket) }
        }
        return found
    }

    func startListening(fd: Int32, address: SocketAddress) {
        let listener = Listener(fd: fd, address: address) { [unowned self] fd, remote, context in
            self.accept(fd: fd, remote: remote, context: context)
        }
        do throws(NetError) {
            try listener.activate(context: context)
            self.listener = listener
        } catch {
            close(fd)
            startError = error
        }
    }

    /// Serves a connected socket: one the listener accepted, or one handed in (`HTTPServer.adopt`).
    func accept(fd: Int32, remote: SocketAddress?, context: LoopContext) {
        guard !isShuttingDown else {
            close(fd)
            return
        }
        // The write deadline for bytes the kernel holds once our queue drained into it (ours sees only our queue),
        // `TCP_USER_TIMEOUT`, and `TCP_NODELAY` came with the socket: set on the listener, which accepted sockets
        // copy (`Sockets.makeListener`).
        let connection = Connection(
            fd: fd, remoteAddress: remote, context: context, writeTimeout: configuration.writeTimeout)
        var transform: TLSTransform?
        if let tls = server.tlsContextForNewConnections {
            guard let made = TLSTransform(context: tls) else {
                close(fd)
                return
            }
            transform = made
        }
        // Counted from here until the descriptor closes (`connectionClosed`), or refused with a 503.
        let refusal = server.connectionCounter.admit(remote)
        let http = HTTPConnectionHandler(
            connection: connection, state: self, refusal: refusal.map(Self.refusalResponse))
        connection.handler = http
        if let transform {
            transform.onHandshakeComplete = { [weak http] in http?.tlsHandshakeCompleted() }
            connection.transform = transform
        }
        do {
            try connection.activate()
        } catch {
            if refusal == nil { server.connectionCounter.release(remote) }
            close(fd)
            return
        }
        connection.isCounted = refusal == nil
        connection.owner = self
        connectionCount += 1
        http.start()
    }

    /// The answer to a connection over a cap: 503, which also refuses an upgrade asked on it (RFC 9110 §15.6.4:
    /// the server cannot handle the request now; a client may retry later).
    static func refusalResponse(_ refusal: ConnectionCounter.Refusal) -> HTTPResponse {
        var response = HTTPResponse.text(
            .serviceUnavailable,
            refusal == .maxConnections
                ? "503 Service Unavailable: the server holds its maximum of connections\n"
                : "503 Service Unavailable: too many connections from your address\n")
        response.headers.add(name: "Retry-After", value: "5")
        return response
    }

    override func connectionClosed(_ connection: Connection) {
        if connection.isCounted { server.connectionCounter.release(connection.remoteAddress) }
        if connection.abortReason == .writeTimedOut { server.connectionCounter.writeTimedOut() }
        connectionCount -= 1
        if isShuttingDown && connectionCount == 0 { finishShutdown() }
    }

    // MARK: WebSocket registry

    func register(_ socket: WebSocket) {
        webSocketCount += 1
    }

    func unregister(_ socket: WebSocket) {
        webSocketCount -= 1
    }

    // MARK: idle sweep

    /// How often open WebSockets are checked for a passed idle-ping deadline: an eighth of the interval (so a
    /// ping goes out at most 12.5% late), at most once a second, at least every 10 ms.
    var sweepInterval: Duration? {
        guard let interval = configuration.webSocket.idlePingInterval else { return nil }
        return min(max(interval / 8, .milliseconds(10)), .seconds(1))
    }

    /// Keeps the sweep running while sockets are open: one loop timer instead of one per idle socket.
    func sweepIdleSocketsPeriodically() {
        guard sweepTimer == nil, let interval = sweepInterval, webSocketCount > 0 else { return }
        sweepTimer = context.scheduleTimer(after: interval) { [unowned self] context in
            self.sweepTimer = nil
            self.sweepIdleSockets(now: context.now)
            self.sweepIdleSocketsPeriodically()
        }
    }

    /// Fires the machine timer of every socket whose idle-ping deadline has passed. The due ones are collected
    /// first: firing one may close it, which changes the registry.
    func sweepIdleSockets(now: ContinuousClock.Instant) {
        guard webSocketCount > 0 else { return }
        var due: [WebSocket] = []
        forEachConnection { connection in
            if let socket = connection.handler as? WebSocket, socket.isIdlePingDue(now: now) { due.append(socket) }
        }
        for socket in due { socket.sweep(now: now) }
    }

    // MARK: shutdown

    /// Stops accepting, asks every connection to finish, and calls `completion` once all are closed or, at
    /// `deadline`, after force-closing the rest.
    func beginShutdown(deadline: ContinuousClock.Instant, completion: @escaping () -> Void) {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        shutdownCompletion = completion
        listener?.close(context: context)
        listener = nil
        if connectionCount == 0 {
            finishShutdown()
            return
        }
        forceCloseTimer = context.scheduleTimer(at: deadline) { [weak self] _ in
            guard let self else { return }
            self.forceCloseTimer = nil
            for connection in self.connections { connection.close() }
        }
        for connection in connections {
            if let handler = connection.handler {
                handler.connectionShouldShutDown(connection, context: context)
            } else {
                connection.close()
            }
        }
    }

    private func finishShutdown() {
        if let forceCloseTimer { context.cancelTimer(forceCloseTimer) }
        forceCloseTimer = nil
        if let sweepTimer { context.cancelTimer(sweepTimer) }
        sweepTimer = nil
        let completion = shutdownCompletion
        shutdownCompletion = nil
        completion?()
    }
}

@available(*, unavailable)
extension ServerLoopState: Sendable {}
