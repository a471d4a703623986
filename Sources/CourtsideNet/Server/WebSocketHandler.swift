import CourtsideWebSocket

/// The application side of one WebSocket (`Route.webSocket`). Loop-confined: every call comes on the socket's loop,
/// and the handler may keep the `WebSocket` to send later from that loop.
public protocol WebSocketHandler: AnyObject {
    /// Decides on a valid upgrade request: accept (optionally choosing one of `request.subprotocols`) or refuse
    /// with 403 and a reason. The default accepts without a subprotocol.
    func shouldAccept(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision
    /// The 101 is queued; messages may be sent.
    func webSocketDidOpen(_ socket: WebSocket)
    /// A complete message arrived (text already validated as UTF-8).
    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage)
    /// The connection ended, for the reason given. Called exactly once; drop the reference.
    func webSocketDidClose(_ socket: WebSocket, closure: WebSocketClosure)
    /// Everything queued was written after the socket had pushed back (`bufferedBytes` is 0 again): the hook for a
    /// slow-consumer policy (resume sending, or resync with a snapshot).
    func webSocketDidDrain(_ socket: WebSocket)
    /// A `BroadcastChannel` with the `.resync` policy dropped this socket's backlog of its frames and
    /// unsubscribed it (the socket fell a byte budget behind): whatever the socket received from the channel is an
    /// unbroken prefix of what was published, and nothing after it arrives until the application re-joins it (a
    /// fresh snapshot, then `channel.subscribe(socket)`, through the publisher's loop for a gap-free join). Called
    /// on the socket's loop, after the publish in progress has reached every subscriber of the loop.
    func webSocketNeedsResync(_ socket: WebSocket, channel: BroadcastChannel)
    /// Whether the socket keeps its request path and query (`WebSocket.path`, `query`) after `webSocketDidOpen`.
    /// A handler that reads them at most when the socket opens says false; afterwards `path` is empty and `query`
    /// nil, and an idle socket carries neither (a path over 15 bytes is a heap `String`, a query needs the socket's
    /// out-of-line box: docs/benchmarks.md, "Idle memory per connection"). The default keeps them.
    var keepsRequestTarget: Bool { get }
    /// The route chose this handler, but no socket opened: the server refused the upgrade (a 503 while it shuts
    /// down, or `shouldAccept` refused). `webSocketDidOpen` and `webSocketDidClose` are not called for it, so this
    /// is where the handler releases what the route took for the connection (a per-address slot). `remoteAddress`
    /// is the connection's peer. Called at most once per routed request.
    func webSocketWasRefused(remoteAddress: SocketAddress?)
}

extension WebSocketHandler {
    public func shouldAccept(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        .accept()
    }

    public func webSocketDidOpen(_ socket: WebSocket) {}

    public func webSocketDidClose(_ socket: WebSocket, closure: WebSocketClosure) {}

    public func webSocketDidDrain(_ socket: WebSocket) {}

    public func webSocketNeedsResync(_ socket: WebSocket, channel: BroadcastChannel) {}

    public var keepsRequestTarget: Bool { true }

    public func webSocketWasRefused(remoteAddress: SocketAddress?) {}
}
