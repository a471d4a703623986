import CourtsideModel
import CourtsideNet

/// `WS /ws/games/{id}[?since=N]`: a spectator. It gets the snapshot (or, resuming, just the patches after `since`
/// when the game still holds them), then every patch in order. Whatever it sends is answered with a `read_only`
/// error and changes nothing. Loop-confined.
final class SpectatorSocket: FeedSocket {
    private let game: GameHandle
    private var since: Int?

    init(game: GameHandle, since: Int?, environment: SocketEnvironment) {
        self.game = game
        self.since = since
        super.init(kind: .spectator, environment: environment)
    }

    override func rejoin() {
        guard let bound, let socket else { return }
        let since = self.since
        self.since = nil  // a resync after this always takes a snapshot
        game.withOwner(from: socket.loopContext) { owner in owner.join(bound, since: since, isEventStream: false) }
    }

    override func webSocketDidOpen(_ socket: WebSocket) {
        super.webSocketDidOpen(socket)
        metrics.spectatorJoined(game.id)
        rejoin()
    }

    override func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        send(frame: ReadOnlyAnswer.frame)
    }

    override func webSocketDidClose(_ socket: WebSocket, closure: WebSocketClosure) {
        metrics.spectatorLeft(game.id)
        super.webSocketDidClose(socket, closure: closure)
    }
}

/// What the router hands every socket it makes.
struct SocketEnvironment {
    let metrics: ServerMetrics
    let limiter: ConnectionLimiter
    /// The client's address (the per-address cap's key).
    let address: String
    let budget: Int
}
