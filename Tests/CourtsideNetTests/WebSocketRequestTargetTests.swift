import CourtsideNet
import CourtsideTestSupport
import Testing

/// Answers every message with the path and query its socket saw when it opened and what it keeps now.
private final class RequestTargetHandler: WebSocketHandler {
    let keepsRequestTarget: Bool
    private var atOpen = ""

    init(keepsRequestTarget: Bool) {
        self.keepsRequestTarget = keepsRequestTarget
    }

    func webSocketDidOpen(_ socket: WebSocket) {
        atOpen = "\(socket.path)?\(socket.query ?? "-")"
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        socket.send(text: "\(atOpen) [\(socket.path)?\(socket.query ?? "-")]")
    }
}

private struct RequestTargetRouter: HTTPRouter {
    func route(_ request: HTTPRequest, context: RouteContext) -> Route {
        .webSocket(RequestTargetHandler(keepsRequestTarget: request.head.path.hasPrefix("/kept")))
    }
}

@Suite("WebSocket request target kept on request", .ownThread)
struct WebSocketRequestTargetTests {
    @Test("a socket keeps its path and query unless its handler says it needs them only when the socket opens")
    func requestTargetKeptOnlyWhenAsked() async throws {
        try await withServer(router: RequestTargetRouter()) { server in
            let cases = [
                ("/kept/games/game-12345?since=3", "/kept/games/game-12345?since=3 [/kept/games/game-12345?since=3]"),
                ("/ws/games/game-12345?since=3", "/ws/games/game-12345?since=3 [?-]"),
                ("/ws/games/game-12345", "/ws/games/game-12345?- [?-]"),
            ]
            for (target, answer) in cases {
                let client = try TestClient(port: server.localAddress.port)
                _ = try client.openWebSocket(path: target)
                try client.send(TestClient.frame(opcode: 0x1, payload: Array("target?".utf8)))
                #expect(try client.readFrame().text == answer)
            }
        }
    }
}
