import CourtsideModel
import CourtsideNet

/// `WS /ws/courts/{id}`: one court's feed, a `courtSnapshot` then every `courtPatch` (docs/protocol.md). Read-only.
/// Loop-confined.
final class CourtSocket: FeedSocket {
    private let courts: LoopBound<CourtsOwner>
    private let id: CourtID

    init(court id: CourtID, courts: LoopBound<CourtsOwner>, environment: SocketEnvironment) {
        self.id = id
        self.courts = courts
        super.init(kind: .court, environment: environment)
    }

    override func rejoin() {
        guard let bound else { return }
        courts.run { [id] owner in
            // The router checked the court exists, and courts are never removed.
            _ = owner.join(id, bound)
        }
    }

    override func webSocketDidOpen(_ socket: WebSocket) {
        super.webSocketDidOpen(socket)
        rejoin()
    }

    override func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        send(frame: ReadOnlyAnswer.frame)
    }
}
