import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The part every subscribing socket shares (spectator, scorer, lobby): it queues feed messages against a byte
/// budget and, past it, leaves the feed and comes back with a fresh snapshot once its queue has drained (ISSUE5 §5:
/// a slow spectator never blocks the game and never holds more than its budget plus one message).
///
/// Subclasses say how to (re)join (`rejoin()`); the base keeps the feed membership, the metrics of open connections
/// and the per-address slot, which it releases exactly once on close. Loop-confined.
class FeedSocket: WebSocketHandler, JoiningSubscriber {
    let kind: ConnectionKind
    let metrics: ServerMetrics
    private let limiter: ConnectionLimiter
    private let address: String
    /// Bytes that may wait in the socket's queue before it is resynced (ServerConfiguration.maxQueuedBytesPerConnection).
    let budget: Int
    private(set) var socket: WebSocket?
    private var feed: GameFeed?
    private var resyncPending = false
    private var resyncTimer: TimerID?

    /// How often a resyncing socket checks whether its queue drained, in case the drain callback does not come
    /// (a queue that grew past the budget without the kernel ever pushing back).
    static let resyncPollInterval: Duration = .milliseconds(250)

    init(kind: ConnectionKind, metrics: ServerMetrics, limiter: ConnectionLimiter, address: String, budget: Int) {
        self.kind = kind
        self.metrics = metrics
        self.limiter = limiter
        self.address = address
        self.budget = budget
    }

    /// Joins (or re-joins) the document's feed: the subclass asks its owner.
    func rejoin() {}

    var isOpen: Bool { socket?.isOpen ?? false }

    /// This socket as a subscriber its owner can reach from the owner's loop.
    var bound: LoopBound<any JoiningSubscriber>? {
        socket.map { LoopBound(self, loop: $0.eventLoop) }
    }

    func receive(_ message: FeedMessage) -> Bool {
        guard let socket, socket.isOpen else { return false }
        if socket.bufferedBytes > budget {
            startResync()
            return false
        }
        socket.send(preEncodedFrame: message.frame)
        metrics.sent(messages: 1, bytes: message.frame.count)
        return true
    }

    func didJoin(feed: GameFeed) {
        self.feed = feed
    }

    /// Sends one message of this socket's own (an answer, an error) as text.
    func send(json: [UInt8]) {
        guard let socket, socket.isOpen else { return }
        let frame = WebSocketFrameEncoder.frame(opcode: .text, payload: json)
        socket.send(preEncodedFrame: frame)
        metrics.sent(messages: 1, bytes: frame.count)
    }

    private func startResync() {
        guard !resyncPending, let socket else { return }
        resyncPending = true
        metrics.slowConsumerResynced()
        if let feed { feed.unsubscribe(self, context: socket.loopContext) }
        feed = nil
        pollResync()
    }

    private func pollResync() {
        guard let socket else { return }
        resyncTimer = socket.loopContext.scheduleTimer(after: Self.resyncPollInterval) { [weak self] _ in
            guard let self else { return }
            self.resyncTimer = nil
            self.finishResyncIfDrained()
        }
    }

    private func finishResyncIfDrained() {
        guard resyncPending, let socket, socket.isOpen else { return }
        guard socket.bufferedBytes == 0 else {
            if resyncTimer == nil { pollResync() }
            return
        }
        resyncPending = false
        if let resyncTimer { socket.loopContext.cancelTimer(resyncTimer) }
        resyncTimer = nil
        rejoin()
    }

    // MARK: WebSocketHandler

    func webSocketDidOpen(_ socket: WebSocket) {
        self.socket = socket
        metrics.connectionOpened(kind)
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {}

    func webSocketDidDrain(_ socket: WebSocket) {
        finishResyncIfDrained()
    }

    func webSocketDidClose(_ socket: WebSocket, closure: WebSocketClosure) {
        if let feed { feed.unsubscribe(self, context: socket.loopContext) }
        feed = nil
        if let resyncTimer { socket.loopContext.cancelTimer(resyncTimer) }
        resyncTimer = nil
        metrics.connectionClosed(kind)
        limiter.release(address)
        self.socket = nil
    }
}

@available(*, unavailable)
extension FeedSocket: Sendable {}
