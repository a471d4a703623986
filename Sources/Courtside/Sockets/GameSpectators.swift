import CourtsideBytes
import CourtsideModel
import CourtsideNet

/// `WS /ws/games/{id}[?since=N]`: every spectator of one game on one loop, served by this one handler, as
/// `courtside-echo` serves its subscribers (docs/benchmarks.md, "Idle memory per connection"): an idle spectator
/// costs the server its socket and nothing more.
///
/// A spectator gets the snapshot (or, resuming, just the patches after `since` when the game still holds them), then
/// every patch in order. Whatever it sends is answered with a `read_only` error and changes nothing. What a socket
/// needs beyond its `WebSocket` is derived from it or kept out of line only while needed: `since` is read from the
/// socket's query when it opens (a resync after that always takes a snapshot); a socket waiting for its queue to
/// drain has an entry in `joins`; the per-address slot is released under the socket's peer address, which is the
/// address it was counted under unless a trusted proxy named another client (`ForwardedSpectator` then carries
/// that address). Loop-confined; made on its loop by `handler(for:client:environment:context:)`.
final class GameSpectators: WebSocketHandler {
    private let game: GameHandle
    private let metrics: ServerMetrics
    private let limiter: ConnectionLimiter
    /// The spectators waiting for their queue to drain before asking again for a snapshot.
    private var joins: FeedJoins

    private init(game: GameHandle, environment: SocketEnvironment) {
        self.game = game
        self.metrics = environment.metrics
        self.limiter = environment.limiter
        joins = FeedJoins(scheduler: environment.scheduler)
    }

    /// The handler for a new spectator of `game` on the loop of `context`: the loop's shared one for the game (made
    /// on first use and kept for the server's life, as games are), wrapped with the client's address when that is
    /// not the TCP peer's (a trusted proxy's `X-Forwarded-For`, `ClientAddress`). The router has taken the
    /// client's slot (`environment`); it is released when the socket closes.
    static func handler(
        for game: GameHandle, client: ClientAddress, environment: SocketEnvironment, context: LoopContext
    ) -> any WebSocketHandler {
        // Keyed by the handle's identity: the handler holds the handle, so that identity is never reused for another
        // game while the attachment lives.
        let spectators = context.attachment(for: ObjectIdentifier(game)) {
            GameSpectators(game: game, environment: environment)
        }
        guard client.address == client.peer else {
            return ForwardedSpectator(spectators: spectators, address: client.address)
        }
        return spectators
    }

    /// Joins `socket` to the game's feed from `since` (nil: with a snapshot), through the owner's loop.
    private func rejoin(_ socket: WebSocket, since: Int?) {
        let joiner: LoopBound<any JoiningSubscriber> = LoopBound(
            SpectatorJoiner(spectators: self, socket: socket), loop: socket.eventLoop)
        game.withOwner(from: socket.loopContext) { owner in owner.join(joiner, since: since, isEventStream: false) }
    }

    /// The owner's join of `socket`, on its loop (`SpectatorJoiner`).
    fileprivate func join(_ socket: WebSocket, catchUp: [EncodedMessage], feed: GameFeed) {
        let behind = FeedJoins.subscribe(socket, after: catchUp, to: feed, metrics: metrics)
        // A relayed game's venue link, after the snapshot: unnumbered, like each later change (docs/relay.md).
        if let source = game.source, socket.isOpen {
            _ = socket.send(text: source.message(game: game.id).description)
        }
        guard !behind else { return }
        joins.startWaiting(socket, poll: pollDrain)
    }

    /// The drain poll (`FeedJoins`): the handler lives as long as the server, so it is captured strongly.
    private var pollDrain: (WebSocket) -> Void {
        { socket in
            if self.joins.pollFired(socket, poll: self.pollDrain) { self.rejoin(socket, since: nil) }
        }
    }

    /// The socket closed: releases what it held, the client's slot (counted under `address`) exactly once.
    fileprivate func close(_ socket: WebSocket, address: String) {
        // The channel drops a closed subscriber itself.
        joins.closed(socket)
        metrics.spectatorLeft(game.id)
        metrics.connectionClosed(.spectator)
        limiter.release(address)
    }

    // MARK: WebSocketHandler

    func shouldAccept(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        .accept(limits: SocketMessageLimits.initial(for: .spectator))
    }

    /// The game is known and `since` is read when the socket opens, so the socket need not carry `/ws/games/{id}`
    /// (a heap string past 15 bytes) nor, once open, its query (a resuming spectator's `since=N`).
    var keepsRequestTarget: Bool { false }

    func webSocketDidOpen(_ socket: WebSocket) {
        metrics.connectionOpened(.spectator)
        metrics.spectatorJoined(game.id)
        rejoin(socket, since: CourtsideRouter.since(in: socket.query))
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        guard socket.isOpen else { return }
        _ = socket.send(preEncodedFrame: ReadOnlyAnswer.frame)
        metrics.sent(messages: 1, bytes: ReadOnlyAnswer.frame.count)
    }

    func webSocketNeedsResync(_ socket: WebSocket, channel: BroadcastChannel) {
        rejoin(socket, since: nil)
    }

    func webSocketDidDrain(_ socket: WebSocket) {
        if joins.shouldRejoin(socket, poll: pollDrain) { rejoin(socket, since: nil) }
    }

    func webSocketDidClose(_ socket: WebSocket, closure: WebSocketClosure) {
        // Counted under the peer's address: the router gives a client named by a proxy a `ForwardedSpectator`.
        close(socket, address: ClientAddress.peer(socket.remoteAddress))
    }

    /// Never opened: only the slot the router took (under the peer's address, as above) is held.
    func webSocketWasRefused(remoteAddress: SocketAddress?) {
        release(address: ClientAddress.peer(remoteAddress))
    }

    /// A socket that never opened releases only its client's slot.
    fileprivate func release(address: String) {
        limiter.release(address)
    }
}

@available(*, unavailable)
extension GameSpectators: Sendable {}

/// A spectator whose client a trusted proxy named (`ClientAddress`): the game's shared handler, with the address
/// its slot was counted under. Behind a proxy every spectator has one (32 bytes, against the handler per socket
/// there was before `GameSpectators`). Loop-confined.
final class ForwardedSpectator: WebSocketHandler {
    private let spectators: GameSpectators
    private let address: String

    init(spectators: GameSpectators, address: String) {
        self.spectators = spectators
        self.address = address
    }

    func shouldAccept(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        spectators.shouldAccept(request)
    }

    func webSocketDidOpen(_ socket: WebSocket) {
        spectators.webSocketDidOpen(socket)
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        spectators.webSocket(socket, didReceive: message)
    }

    func webSocketNeedsResync(_ socket: WebSocket, channel: BroadcastChannel) {
        spectators.webSocketNeedsResync(socket, channel: channel)
    }

    func webSocketDidDrain(_ socket: WebSocket) {
        spectators.webSocketDidDrain(socket)
    }

    var keepsRequestTarget: Bool { false }

    func webSocketDidClose(_ socket: WebSocket, closure: WebSocketClosure) {
        spectators.close(socket, address: address)
    }

    func webSocketWasRefused(remoteAddress: SocketAddress?) {
        spectators.release(address: address)
    }
}

@available(*, unavailable)
extension ForwardedSpectator: Sendable {}

/// One spectator as the owner joins it: the shared handler and the socket, carried by value (two references, held
/// inline by the `any JoiningSubscriber` existential: no allocation per socket beyond the join's own task).
private struct SpectatorJoiner: JoiningSubscriber {
    let spectators: GameSpectators
    let socket: WebSocket

    var isEventStream: Bool { false }

    func join(catchUp: [EncodedMessage], feed: GameFeed, context: LoopContext) {
        spectators.join(socket, catchUp: catchUp, feed: feed)
    }
}
