import CourtsideBytes
import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The part every subscribing socket shares (spectator, scorer, lobby): joining its document's feed, and coming
/// back with a fresh snapshot when it falls behind (docs/server.md, "Limits").
///
/// A slow socket is handled by the `BroadcastChannel`'s `.resync` policy: past its byte budget its unsent frames
/// of the feed are dropped and it is unsubscribed, so it never blocks the game nor holds more than its budget plus
/// one frame; `webSocketNeedsResync` then re-joins it through the owner's loop, which sends a snapshot and
/// subscribes it again gap-free. A catch-up that itself overruns the budget waits for the queue to drain.
///
/// Subclasses say how to (re)join (`rejoin()`); the base keeps the feed membership, the metrics of open
/// connections and the per-address slot, released exactly once on close. Loop-confined.
class FeedSocket: WebSocketHandler, JoiningSubscriber {
    let kind: ConnectionKind
    let metrics: ServerMetrics
    private let limiter: ConnectionLimiter
    /// The client's address (`ClientAddress`): the per-address cap and the authentication throttle count it.
    let address: String
    private(set) var socket: WebSocket?
    /// This socket's wait for its queue to drain, while it has fallen behind during a join.
    private var joins: FeedJoins

    init(kind: ConnectionKind, environment: SocketEnvironment) {
        self.kind = kind
        self.metrics = environment.metrics
        self.limiter = environment.limiter
        self.address = environment.address
        joins = FeedJoins(scheduler: environment.scheduler)
    }

    /// Joins (or re-joins) the document's feed: the subclass asks its owner.
    func rejoin() {}

    var isEventStream: Bool { false }

    /// This socket as a subscriber its owner can reach from the owner's loop.
    var bound: LoopBound<any JoiningSubscriber>? {
        socket.map { LoopBound(self, loop: $0.eventLoop) }
    }

    func join(catchUp: [EncodedMessage], feed: GameFeed, context: LoopContext) {
        guard let socket, !FeedJoins.subscribe(socket, after: catchUp, to: feed, metrics: metrics) else { return }
        joins.startWaiting(socket, poll: pollDrain)
    }

    /// Sends one message of this socket's own (an answer, an error).
    func send(json: [UInt8]) {
        send(frame: WebSocketFrameEncoder.frame(opcode: .text, payload: json))
    }

    /// Sends one already encoded text frame of this socket's own.
    func send(frame: [UInt8]) {
        guard let socket, socket.isOpen else { return }
        _ = socket.send(preEncodedFrame: frame)
        metrics.sent(messages: 1, bytes: frame.count)
    }

    // MARK: WebSocketHandler

    /// Accepts with the limits of this kind of socket: the upgrade decision carries them to the connection.
    func shouldAccept(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        .accept(limits: SocketMessageLimits.initial(for: kind))
    }

    func webSocketDidOpen(_ socket: WebSocket) {
        self.socket = socket
        metrics.connectionOpened(kind)
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {}

    func webSocketNeedsResync(_ socket: WebSocket, channel: BroadcastChannel) {
        rejoin()
    }

    func webSocketDidDrain(_ socket: WebSocket) {
        if joins.shouldRejoin(socket, poll: pollDrain) { rejoin() }
    }

    /// The drain poll (`FeedJoins`). Weak: a poll still armed when the socket closes is cancelled, but the handler
    /// must not be kept alive by it meanwhile.
    private var pollDrain: (WebSocket) -> Void {
        { [weak self] socket in
            guard let self else { return }
            if self.joins.pollFired(socket, poll: self.pollDrain) { self.rejoin() }
        }
    }

    /// Never opened: only the slot the router took is held.
    func webSocketWasRefused(remoteAddress: SocketAddress?) {
        limiter.release(address)
    }

    func webSocketDidClose(_ socket: WebSocket, closure: WebSocketClosure) {
        // The channel drops a closed subscriber itself.
        joins.closed(socket)
        metrics.connectionClosed(kind)
        limiter.release(address)
        self.socket = nil
    }
}

@available(*, unavailable)
extension FeedSocket: Sendable {}
