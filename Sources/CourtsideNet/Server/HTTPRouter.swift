import CourtsideHTTP

/// The application's routing hook: called on the connection's event loop for every request, in the order the
/// requests arrived. It must not block (the loop serves every other connection on the thread).
public protocol HTTPRouter: Sendable {
    func route(_ request: HTTPRequest, context: RouteContext) -> Route
}

/// A router made from a closure.
public struct ClosureRouter: HTTPRouter {
    private let body: @Sendable (HTTPRequest, RouteContext) -> Route

    public init(_ body: @escaping @Sendable (HTTPRequest, RouteContext) -> Route) {
        self.body = body
    }

    public func route(_ request: HTTPRequest, context: RouteContext) -> Route {
        body(request, context)
    }
}

/// What the router decided for one request.
public enum Route {
    /// Send this response (the server adds `Date`, `Content-Length` and `Connection`).
    case respond(HTTPResponse)
    /// Upgrade to a WebSocket (after validating the handshake: 400/426 otherwise) run by `handler`, which may
    /// still refuse (403) or choose a subprotocol in `WebSocketHandler.shouldAccept(_:)`.
    case webSocket(any WebSocketHandler)
    /// Answer with a `text/event-stream` that stays open; `handler` gets an `EventStream` to push events.
    case eventStream(any EventStreamHandler)
    /// Serve the request from `Configuration.staticFiles` (404 when there is no such file).
    case staticFiles
    /// Answer later: `start` runs at once with a `respond` function to call exactly once, on the connection's loop
    /// (for an answer that waits on something else, such as a journal write). Further pipelined requests wait for
    /// it, so answers stay in order; later calls, or calls after the client went away, do nothing.
    case deferred(_ start: (_ respond: @escaping (HTTPResponse) -> Void) -> Void)
}

/// Where a request came from, and the loop it runs on. Loop-confined.
public struct RouteContext {
    /// The loop-confined context of the loop serving the connection: WebSocket and event-stream handlers live on it.
    public let loopContext: LoopContext

    /// The loop serving the connection.
    public var eventLoop: EventLoop { loopContext.loop }
    /// The peer's address, when the kernel reported one.
    public let remoteAddress: SocketAddress?
    /// Whether the connection is TLS.
    public let isSecure: Bool

    /// The context of a request on the loop of `loopContext`; the server makes one per request, and a test that
    /// routes requests in memory makes its own.
    public init(loopContext: LoopContext, remoteAddress: SocketAddress?, isSecure: Bool) {
        self.loopContext = loopContext
        self.remoteAddress = remoteAddress
        self.isSecure = isSecure
    }
}

@available(*, unavailable)
extension RouteContext: Sendable {}
