import CLinux
import Glibc

/// An HTTP/1.1 server (with WebSocket upgrades, server-sent events, static files and optional TLS) on a group of
/// event loops.
///
/// Each loop has its own `SO_REUSEPORT` listener, so the kernel spreads connections over the loops and a connection
/// lives its whole life on the loop that accepted it; there is no acceptor thread and no hand-off. Per-loop state
/// (listener, open connections, the WebSocket registry) lives in the loop's `LoopContext`.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 8080), router: ClosureRouter { request, _ in
///     request.head.path == "/ws" ? .webSocket(EchoHandler()) : .staticFiles
/// })
/// try server.runUntilSignal()   // SIGTERM/SIGINT: graceful shutdown
/// ```
public final class HTTPServer: Sendable {
    public let configuration: Configuration
    /// The loops serving this server.
    public let group: EventLoopGroup
    /// The address the listeners are bound to (with the real port when `configuration.port` was 0).
    public let localAddress: SocketAddress
    /// The application's routes: what every request is handed to (a test may hand it requests itself, on one of
    /// `group`'s loops, without a socket).
    public let router: any HTTPRouter
    /// Every loop's connections, against `configuration.connectionCaps`.
    let connectionCounter: ConnectionCounter
    private let ownsGroup: Bool
    /// The TLS context new connections are made with: `configuration.tls` until `reloadTLS(_:)` swaps it
    /// (HTTPServer+TLSReload.swift).
    let currentTLS: LockedValue<TLSContext?>
    private let lifecycle = LockedValue(Lifecycle.running)
    private let stoppedSignal = Semaphore()

    private enum Lifecycle {
        case running
        case stopping
        case stopped
    }

    /// Binds the listeners and starts serving. With `group` nil the server makes (and owns) a group of
    /// `configuration.threadCount` loops; otherwise it runs on `group`, which the caller shuts down.
    public init(configuration: Configuration, router: any HTTPRouter, group: EventLoopGroup? = nil) throws(NetError) {
        Sockets.ignoreSIGPIPE()
        self.configuration = configuration
        self.router = router
        self.connectionCounter = ConnectionCounter(caps: configuration.connectionCaps)
        self.currentTLS = LockedValue(configuration.tls)
        let address = try SocketAddress.resolve(host: configuration.host, port: configuration.port)
        // SO_REUSEPORT would let a second server (same user) bind the same port and silently take half the
        // connections; a probe bind without it fails with EADDRINUSE when the port is taken, as a user expects.
        if configuration.port != 0 {
            close(try Sockets.makeListener(address: address, reusePort: false, backlog: 1))
        }
        // Bind the first listener to learn the real port (when 0 was asked), then the others to the same port.
        let first = try Sockets.makeListener(
            address: address, reusePort: true, backlog: configuration.backlog, userTimeout: configuration.writeTimeout)
        var fds = [first]
        let bound: SocketAddress
        do throws(NetError) {
            bound = try Sockets.localAddress(of: first)
        } catch {
            close(first)
            throw error
        }
        let owned = group == nil
        let loops: EventLoopGroup
        if let group {
            loops = group
        } else {
            do throws(NetError) {
                loops = try EventLoopGroup(threadCount: configuration.threadCount)
            } catch {
                close(first)
                throw error
            }
        }
        do throws(NetError) {
            for _ in 1..<loops.loops.count {
                fds.append(
                    try Sockets.makeListener(
                        address: bound, reusePort: true, backlog: configuration.backlog,
                        userTimeout: configuration.writeTimeout))
            }
        } catch {
            for fd in fds { close(fd) }
            if owned { loops.shutdown() }
            throw error
        }
        self.group = loops
        self.ownsGroup = owned
        self.localAddress = bound
        try start(listenerFDs: fds, address: bound)
    }

    private func start(listenerFDs: [Int32], address: SocketAddress) throws(NetError) {
        let failures = LockedValue<[NetError]>([])
        let done = Semaphore()
        for (loop, fd) in zip(group.loops, listenerFDs) {
            loop.execute { [self] context in
                let state = ServerLoopState(server: self, context: context)
                context.attachment(for: self.attachmentKey) { state }.startListening(fd: fd, address: address)
                if let error = state.startError { failures.withLock { $0.append(error) } }
                done.post()
            }
        }
        for _ in listenerFDs { done.wait() }
        if let error = failures.withLock({ $0.first }) {
            shutdown(gracePeriod: .zero)
            throw error
        }
    }

    var attachmentKey: ObjectIdentifier { ObjectIdentifier(self) }

    /// Serves `fd`, a connected non-blocking stream socket the caller made, on loop `loopIndex` exactly as one its
    /// listener accepted (caps, TLS, the HTTP parser, upgrades), as if from `remoteAddress`: the in-process transport
    /// of the tests (one end of a `socketpair`, no TCP, no port; `CourtsideTestSupport`'s `InProcessConnection`).
    /// The server owns `fd` from this call (closed if it is shutting down).
    package func adopt(connectedSocket fd: Int32, remoteAddress: SocketAddress, loopIndex: Int = 0) {
        group.loops[loopIndex].execute { [self] context in
            guard let state = context.existingAttachment(for: attachmentKey, as: ServerLoopState.self) else {
                close(fd)
                return
            }
            state.accept(fd: fd, remote: remoteAddress, context: context)
        }
    }

    /// Open connections and the ones refused over `configuration.connectionCaps` (any thread).
    public var connectionStatistics: ConnectionStatistics { connectionCounter.statistics }

    /// The URL a client would use for this server's root (`http://`, `https://`).
    public var url: String {
        "\(configuration.tls == nil ? "http" : "https")://\(localAddress)/"
    }

    /// Graceful shutdown, blocking until done: stop accepting (listeners closed), let every connection finish
    /// (HTTP: the request in flight; WebSocket: a close handshake with 1001 Going Away; event streams: end the
    /// stream), flush, and force-close whatever is left when `gracePeriod` runs out. Stops the loops if the
    /// server owns them. Must not be called from one of the server's loops. Later calls wait for the first.
    public func shutdown(gracePeriod: Duration = .seconds(5)) {
        precondition(!group.loops.contains { $0.inEventLoop }, "HTTPServer.shutdown called on one of its loops")
        let first = lifecycle.withLock { state -> Bool in
            guard case .running = state else { return false }
            state = .stopping
            return true
        }
        guard first else {
            waitUntilStopped()
            return
        }
        let done = Semaphore()
        for loop in group.loops {
            loop.execute { [self] context in
                guard let state = context.existingAttachment(for: self.attachmentKey, as: ServerLoopState.self) else {
                    done.post()
                    return
                }
                state.beginShutdown(deadline: context.now + gracePeriod) {
                    context.removeAttachment(for: self.attachmentKey)
                    done.post()
                }
            }
        }
        // The loops force-close at the deadline; the margin only guards against a loop that is wedged.
        for _ in group.loops { _ = done.wait(timeout: gracePeriod + .seconds(2)) }
        if ownsGroup { group.shutdown() }
        lifecycle.withLock { $0 = .stopped }
        stoppedSignal.post()
    }

    /// Blocks until `shutdown` has finished.
    public func waitUntilStopped() {
        if lifecycle.withLock({ if case .stopped = $0 { return true } else { return false } }) { return }
        stoppedSignal.wait()
        stoppedSignal.post()  // wake the next waiter too
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully. Call from the main thread of an executable.
    public func runUntilSignal(_ signals: [Int32] = [SIGTERM, SIGINT], gracePeriod: Duration = .seconds(5))
        throws(NetError)
    {
        let watcher = try SignalWakeup(signals)
        watcher.wait()
        shutdown(gracePeriod: gracePeriod)
    }

    // MARK: running code on the server's loops

    /// Runs `body` on every loop with that loop's open WebSockets (for a broadcast: encode the frame once, then
    /// `socket.send(preEncodedFrame:)` on each).
    public func forEachLoop(_ body: @escaping @Sendable (LoopContext, [WebSocket]) -> Void) {
        for loop in group.loops {
            loop.execute { [self] context in
                let sockets =
                    context.existingAttachment(for: self.attachmentKey, as: ServerLoopState.self)?
                    .openWebSockets ?? []
                body(context, sockets)
            }
        }
    }
}
