import CourtsideNet

/// `WS /ws/games`: the lobby feed, a `lobbySnapshot` then every `lobbyPatch`. Read-only. Loop-confined.
final class LobbySocket: FeedSocket {
    private let lobby: LoopBound<LobbyOwner>

    init(lobby: LoopBound<LobbyOwner>, environment: SocketEnvironment) {
        self.lobby = lobby
        super.init(kind: .lobby, environment: environment)
    }

    override func rejoin() {
        guard let bound else { return }
        lobby.run { owner in owner.join(bound) }
    }

    override func webSocketDidOpen(_ socket: WebSocket) {
        super.webSocketDidOpen(socket)
        rejoin()
    }

    override func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        send(frame: ReadOnlyAnswer.frame)
    }
}
