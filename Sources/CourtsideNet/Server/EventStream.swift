import CourtsideHTTP

/// The application side of a server-sent event stream (`Route.eventStream`). Called on the stream's loop.
public protocol EventStreamHandler: AnyObject {
    /// The response head is queued; events may be sent from now on (keep the `stream` to push later).
    func eventStreamDidOpen(_ stream: EventStream)
    /// The stream ended (client went away, `close()`, or server shutdown). Drop the reference.
    func eventStreamDidClose(_ stream: EventStream)
    /// The route chose this handler, but the stream never opened (a 503 while the server shuts down): neither
    /// `eventStreamDidOpen` nor `eventStreamDidClose` is called for it, so the handler releases here what the route
    /// took for the connection (a per-address slot).
    func eventStreamWasRefused()
}

extension EventStreamHandler {
    public func eventStreamDidClose(_ stream: EventStream) {}

    public func eventStreamWasRefused() {}
}

/// An open `text/event-stream` response: push events, or close it. Loop-confined: use it only on `eventLoop`'s thread
/// (from another thread, go through `eventLoop.execute`).
///
/// HTTP/1.1 clients get a chunked body (each event one chunk, the payload bytes shared, not copied); HTTP/1.0 clients
/// get the raw stream, ended by closing the connection. A `: keep-alive` comment goes out every
/// `Configuration.eventStreamKeepAliveInterval`.
public final class EventStream: ConnectionHandler {
    /// The request that opened the stream (path, query such as `since=N`, `Last-Event-ID` header).
    public let requestHead: HTTPRequestHead
    private let connection: Connection
    private unowned let state: ServerLoopState
    private var handler: (any EventStreamHandler)?
    private let chunked: Bool
    private var keepAliveTimer: TimerID?

    private static let crlf: [UInt8] = [0x0D, 0x0A]

    init(connection: Connection, state: ServerLoopState, handler: any EventStreamHandler, requestHead: HTTPRequestHead)
    {
        self.connection = connection
        self.state = state
        self.handler = handler
        self.requestHead = requestHead
        chunked = requestHead.version != .http1_0
    }

    /// The loop-confined context of the loop the stream lives on (timers, per-loop state).
    public var loopContext: LoopContext { connection.context }

    /// The loop the stream lives on: `eventLoop.execute` reaches it from any thread.
    public var eventLoop: EventLoop { connection.context.loop }

    /// Whether events can still be sent.
    public var isOpen: Bool { connection.isOpen && handler != nil }

    /// Bytes queued and not yet taken by the kernel (a slow reader's backlog).
    public var bufferedBytes: Int { connection.bufferedBytes }

    func start() {
        connection.handler = self
        let head = HTTPResponseEncoder.head(
            state.configuration.decorate(ServerSentEvent.streamResponse, path: requestHead.path),
            framing: chunked ? .chunked : .none, keepAlive: chunked,
            requestVersion: requestHead.version, date: state.date)
        connection.write(head)
        if requestHead.method == .HEAD {
            close()
            return
        }
        scheduleKeepAlive()
        handler?.eventStreamDidOpen(self)
    }

    /// Sends one event.
    public func send(_ event: ServerSentEvent) {
        send(preEncoded: event.encoded)
    }

    /// Sends bytes that are already one or more encoded events (`ServerSentEvent.encoded`): a broadcast encodes once
    /// and every stream queues the same buffer.
    public func send(preEncoded bytes: [UInt8]) {
        connection.context.loop.assertInEventLoop()
        guard isOpen, !bytes.isEmpty else { return }
        if chunked {
            connection.write(Array(String(bytes.count, radix: 16).utf8) + Self.crlf)
            connection.write(bytes)
            connection.write(Self.crlf)
        } else {
            connection.write(bytes)
        }
    }

    /// Ends the stream (the last chunk for HTTP/1.1) and closes the connection after flushing.
    public func close() {
        guard connection.isOpen else { return }
        if chunked { connection.write(HTTPResponseEncoder.lastChunk) }
        connection.closeAfterFlush()
        ended()
    }

    private func scheduleKeepAlive() {
        // Strong capture: `ended` cancels the timer, so it never keeps a closed stream alive.
        keepAliveTimer = loopContext.scheduleTimer(after: state.configuration.eventStreamKeepAliveInterval) { _ in
            guard self.isOpen else { return }
            self.send(preEncoded: ServerSentEvent.keepAliveComment)
            self.scheduleKeepAlive()
        }
    }

    private func ended() {
        if let keepAliveTimer { loopContext.cancelTimer(keepAliveTimer) }
        keepAliveTimer = nil
        let handler = self.handler
        self.handler = nil
        handler?.eventStreamDidClose(self)
    }

    // MARK: ConnectionHandler (internal plumbing)

    func connection(_ connection: Connection, received bytes: UnsafeRawBufferPointer, context: LoopContext) {
        // A client sends nothing on an event stream; anything it does send is ignored.
    }

    func connectionShouldShutDown(_ connection: Connection, context: LoopContext) {
        close()
    }

    func connectionClosed(_ connection: Connection, context: LoopContext) {
        ended()
    }
}

@available(*, unavailable)
extension EventStream: Sendable {}
