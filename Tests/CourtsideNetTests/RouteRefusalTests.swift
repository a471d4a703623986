import CourtsideNet
import CourtsideTestSupport
import Foundation
import Testing

/// A route may take something for a long-lived connection before it returns its handler (the application takes a
/// per-address slot). When the server then refuses the upgrade, neither `…DidOpen` nor `…DidClose` is called, so the
/// handler must hear of the refusal once, or what the route took is never given back.
@Suite("Refused upgrades tell their handler", .serialized, .ownThread)
struct RouteRefusalTests {
    /// Records every callback it gets, as "event host".
    final class RecordingSocket: WebSocketHandler {
        let events: Collector<String>
        let refuses: Bool

        init(events: Collector<String>, refuses: Bool) {
            self.events = events
            self.refuses = refuses
        }

        func shouldAccept(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
            refuses ? .refuse(reason: "not today") : .accept()
        }

        func webSocketDidOpen(_ socket: WebSocket) { events.append("open") }
        func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {}
        func webSocketDidClose(_ socket: WebSocket, closure: WebSocketClosure) { events.append("close") }
        func webSocketWasRefused(remoteAddress: SocketAddress?) {
            events.append("refused \(remoteAddress?.host ?? "none")")
        }
    }

    final class RecordingStream: EventStreamHandler {
        let events: Collector<String>

        init(events: Collector<String>) { self.events = events }

        func eventStreamDidOpen(_ stream: EventStream) { events.append("open") }
        func eventStreamDidClose(_ stream: EventStream) { events.append("close") }
        func eventStreamWasRefused() { events.append("refused") }
    }

    struct RecordingRouter: HTTPRouter {
        let events: Collector<String>

        func route(_ request: HTTPRequest, context: RouteContext) -> Route {
            switch request.head.path {
            case "/refuse": .webSocket(RecordingSocket(events: events, refuses: true))
            case "/ws": .webSocket(RecordingSocket(events: events, refuses: false))
            case "/events": .eventStream(RecordingStream(events: events))
            default: .respond(.text(.notFound, "no route\n"))
            }
        }
    }

    @Test("a handler that refuses in shouldAccept hears of it once, with the peer's address; never opened or closed")
    func refusedByHandler() async throws {
        let events = Collector<String>()
        try await withServer(router: RecordingRouter(events: events)) { server in
            let client = try TestClient(port: server.localAddress.port)
            try client.send(TestClient.upgradeRequest(path: "/refuse"))
            #expect(try client.readResponse().status == 403)
            #expect(try client.waitForClose())
        }
        #expect(events.snapshot == ["refused 127.0.0.1"])
    }

    @Test("an upgrade or event stream that arrives while the server shuts down gets 503, and its handler hears of it")
    func refusedWhileShuttingDown() async throws {
        for path in ["/ws", "/events"] {
            let events = Collector<String>()
            let configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threadCount: 1)
            let server = try HTTPServer(configuration: configuration, router: RecordingRouter(events: events))
            let port = server.localAddress.port
            // Half a request: the connection is in the middle of one, so shutdown waits for its answer.
            let request =
                path == "/ws" ? TestClient.upgradeRequest(path: path) : "GET /events HTTP/1.1\r\nHost: x\r\n\r\n"
            let client = try TestClient(port: port)
            let cut = request.utf8.count - 2
            try client.send(Array(request.utf8.prefix(cut)))
            // Two round trips on another connection of the same loop: by the second, the loop has read the half
            // request (it was ready before the first), so shutdown finds the connection mid-request, not idle.
            let other = try TestClient(port: port)
            for _ in 0..<2 {
                try other.send("GET /missing HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try other.readResponse().status == 404)
            }
            other.closeSocket()
            let stopped = onThread { server.shutdown(gracePeriod: .seconds(5)) }
            // The listener closes when shutdown begins on the loop, in the same step that marks it shutting down.
            let closed = eventually(within: .seconds(5), every: .milliseconds(5)) {
                (try? TestClient(port: port, timeout: .seconds(1))) == nil
            }
            #expect(closed, "shutdown closes the listener")
            try client.send(Array(request.utf8.dropFirst(cut)))
            let response = try client.readResponse()
            #expect(response.status == 503, "\(path)")
            #expect(response.text.contains("shutting down"))
            #expect(try client.waitForClose())
            client.closeSocket()  // the server lingers for our side of the close before it finishes shutting down
            #expect(stopped(.seconds(10)))
            let expected = path == "/ws" ? "refused 127.0.0.1" : "refused"
            #expect(events.snapshot == [expected], "\(path)")
        }
    }
}
