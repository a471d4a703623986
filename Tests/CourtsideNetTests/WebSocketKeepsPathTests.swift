import CourtsideNet
import CourtsideTestSupport
import Testing

/// Answers every message with the path its socket kept, in brackets.
private final class PathHandler: WebSocketHandler {
    let keepsPath: Bool

    init(keepsPath: Bool) {
        self.keepsPath = keepsPath
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        socket.send(text: "[\(socket.path)]")
    }
}

private struct PathRouter: HTTPRouter {
    func route(_ request: HTTPRequest, context: RouteContext) -> Route {
        .webSocket(PathHandler(keepsPath: request.head.path.hasPrefix("/kept")))
    }
}

@Suite("WebSocket path kept on request", .ownThread)
struct WebSocketKeepsPathTests {
    @Test("a socket keeps its request path unless its handler says it need not (an idle socket then carries none)")
    func pathKeptOnlyWhenAsked() async throws {
        try await withServer(router: PathRouter()) { server in
            for (path, kept) in [("/kept/games/game-12345", "/kept/games/game-12345"), ("/ws/games/game-12345", "")] {
                let client = try TestClient(port: server.localAddress.port)
                _ = try client.openWebSocket(path: path)
                try client.send(TestClient.frame(opcode: 0x1, payload: Array("path?".utf8)))
                #expect(try client.readFrame().text == "[\(kept)]")
            }
        }
    }
}
