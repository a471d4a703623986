import CourtsideNet
import CourtsideTestSupport
import Testing

@Suite("WebSocket over loopback", .serialized, .ownThread)
struct WebSocketServerTests {
    @Test("the server starts on an ephemeral port and refuses connections once stopped")
    func startStop() async throws {
        var configuration = HTTPServer.Configuration(port: 0, threadCount: 2)
        configuration.host = "127.0.0.1"
        let server = try HTTPServer(configuration: configuration, router: TestRouter())
        let port = server.localAddress.port
        #expect(port != 0)
        let client = try TestClient(port: port)
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().text == "hello")
        server.shutdown(gracePeriod: .milliseconds(200))
        #expect(throws: TestClientError.self) { try TestClient(port: port) }
    }

    @Test("starting a second server on a port in use fails with EADDRINUSE")
    func portInUse() async throws {
        try await withServer { server in
            let second = HTTPServer.Configuration(port: server.localAddress.port, threadCount: 1)
            #expect(throws: NetError.self) { try HTTPServer(configuration: second, router: TestRouter()) }
        }
    }

    @Test("connections are spread over the loops by their SO_REUSEPORT listeners")
    func spreadOverLoops() async throws {
        try await withServer(threads: 2) { server in
            var seen = Set<String>()
            for _ in 0..<64 where seen.count < 2 {
                let client = try TestClient(port: server.localAddress.port)
                try client.send("GET /loop HTTP/1.1\r\nHost: x\r\n\r\n")
                seen.insert(try client.readResponse().text)
            }
            #expect(seen == ["0", "1"])
        }
    }

    @Test("idle sockets are pinged by the loop's sweep: one timer for the loop, not one per socket")
    func idlePingSweep() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            // Long enough that no socket is pinged while the others connect (a pinged socket rightly gets an
            // exact timer for its pong deadline), short enough to wait for.
            $0.webSocket.idlePingInterval = .seconds(2)
            $0.webSocket.pongTimeout = .seconds(30)
        }
        try await withServer(configure: configure) { server in
            var clients: [TestClient] = []
            for _ in 0..<20 {
                let client = try TestClient(port: server.localAddress.port)
                _ = try client.openWebSocket(path: "/ws")
                clients.append(client)
            }
            let timers = Collector<Int>()
            server.forEachLoop { _, sockets in
                timers.append(sockets.first?.loopContext.scheduledTimerCount ?? -1)
            }
            // The sweep, and at most one other loop timer: a timer per idle socket would make it 20 or more.
            let count = try #require(await timers.wait(for: 1).first)
            #expect((1...2).contains(count))
            for client in clients {
                let frame = try client.readFrame()
                #expect(frame.opcode == 0x9)  // RFC 6455 §5.5.2: the idle ping, on time for every socket
            }
        }
    }

    @Test("a frame encoded once is broadcast to every open WebSocket on every loop")
    func broadcast() async throws {
        try await withServer(threads: 2) { server in
            var clients: [TestClient] = []
            for _ in 0..<6 {
                let client = try TestClient(port: server.localAddress.port)
                _ = try client.openWebSocket(path: "/ws")
                clients.append(client)
            }
            let frame = WebSocketFrameEncoder.text("score 2-1")
            let reached = Collector<Int>()
            server.forEachLoop { _, sockets in
                for socket in sockets { socket.send(preEncodedFrame: frame) }
                reached.append(sockets.count)
            }
            #expect(await reached.wait(for: 2).reduce(0, +) == 6)
            for client in clients {
                #expect(try client.readFrame() == .init(fin: true, opcode: 0x1, payload: Array("score 2-1".utf8)))
            }
        }
    }

    @Test("IPv6 loopback serves like IPv4")
    func ipv6() async throws {
        try await withServer(host: "::1") { server in
            let client = try TestClient(port: server.localAddress.port, host: "::1")
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
    }

    @Test("text and binary messages are echoed as received")
    func echo() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            _ = try client.openWebSocket(path: "/ws")
            try client.send(TestClient.frame(opcode: 0x1, payload: Array("héllo".utf8)))
            #expect(try client.readFrame() == .init(fin: true, opcode: 0x1, payload: Array("héllo".utf8)))
            let binary = (0..<300).map { UInt8($0 & 0xFF) }
            try client.send(TestClient.frame(opcode: 0x2, payload: binary))
            #expect(try client.readFrame() == .init(fin: true, opcode: 0x2, payload: binary))
            // A fragmented message comes back as one frame.
            try client.send(TestClient.frame(opcode: 0x1, payload: Array("ab".utf8), fin: false))
            try client.send(TestClient.frame(opcode: 0x9, payload: [1, 2]))  // ping between fragments
            try client.send(TestClient.frame(opcode: 0x0, payload: Array("cd".utf8), fin: true))
            #expect(try client.readFrame() == .init(fin: true, opcode: 0xA, payload: [1, 2]))
            #expect(try client.readFrame() == .init(fin: true, opcode: 0x1, payload: Array("abcd".utf8)))
        }
    }

    @Test("a 2 MiB message is echoed whole (partial writes and EPOLLOUT on the way)")
    func largeEcho() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            _ = try client.openWebSocket(path: "/ws")
            let payload = (0..<(2 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try client.send(TestClient.frame(opcode: 0x2, payload: payload))
            let frame = try client.readFrame()
            #expect(frame.opcode == 0x2)
            #expect(frame.payload == payload)
        }
    }

    @Test("bytes sent right behind the handshake reach the WebSocket")
    func leftoverBytes() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            try client.send(
                Array(TestClient.upgradeRequest(path: "/ws").utf8) + TestClient.frame(opcode: 0x1, payload: [0x41]))
            #expect(try client.readResponse().status == 101)
            #expect(try client.readFrame().payload == [0x41])
        }
    }

    @Test("the close handshake answers 1000 with 1000 and closes the transport")
    func closeHandshake() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            _ = try client.openWebSocket(path: "/ws")
            try client.send(TestClient.frame(opcode: 0x8, payload: [0x03, 0xE8]))
            #expect(try client.readCloseCode() == 1000)
            #expect(try client.waitForClose())
            client.closeSocket()
        }
    }

    @Test(
        "handshake refusals carry their status",
        arguments: [
            (TestClient.upgradeRequest(path: "/ws", upgrade: false), 400),
            (TestClient.upgradeRequest(path: "/ws", version: "8"), 426),
            (TestClient.upgradeRequest(path: "/ws", key: "too-short"), 400),
            (TestClient.upgradeRequest(path: "/refuse"), 403),
        ])
    func refusals(request: String, status: Int) async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            try client.send(request)
            let response = try client.readResponse()
            #expect(response.status == status)
            if status == 426 { #expect(response.header("Sec-WebSocket-Version") == "13") }
            if status == 403 { #expect(response.text.contains("origin not allowed")) }
            #expect(try client.waitForClose())
        }
    }

    @Test("the application chooses an offered subprotocol")
    func subprotocol() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            let response = try client.openWebSocket(
                path: "/subprotocol", extraHeaders: ["Sec-WebSocket-Protocol: other, scores.v1"])
            #expect(response.header("Sec-WebSocket-Protocol") == "scores.v1")
        }
    }

    @Test(
        "protocol violations close with their code",
        arguments: [
            ("unmasked frame", TestClient.frame(opcode: 0x1, payload: [0x41], masked: false), UInt16(1002)),
            ("invalid UTF-8", TestClient.frame(opcode: 0x1, payload: [0xC3, 0x28]), 1007),
            ("too big", TestClient.frame(opcode: 0x2, payload: [UInt8](repeating: 7, count: 2048)), 1009),
            ("reserved opcode", TestClient.frame(opcode: 0x3, payload: []), 1002),
            ("fragmented control", TestClient.frame(opcode: 0x9, payload: [], fin: false), 1002),
            ("reserved bit", TestClient.frame(opcode: 0x1, payload: [0x41], rsv: 0b100), 1002),
        ])
    func violations(name: String, frame: [UInt8], code: UInt16) async throws {
        let smallMessages: (inout HTTPServer.Configuration) -> Void = { $0.webSocket.maxMessageBytes = 1024 }
        try await withServer(configure: smallMessages) { server in
            let client = try TestClient(port: server.localAddress.port)
            _ = try client.openWebSocket(path: "/ws")
            try client.send(frame)
            #expect(try client.readCloseCode() == code, "\(name)")
            #expect(try client.waitForClose(), "\(name)")
        }
    }

    @Test("a message ahead of a protocol error in the same read is echoed before the close frame")
    func echoBeforeFailure() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            _ = try client.openWebSocket(path: "/ws")
            try client.send(
                TestClient.frame(opcode: 0x1, payload: Array("first".utf8))
                    + TestClient.frame(opcode: 0x1, payload: [0x41], rsv: 0b010)
                    + TestClient.frame(opcode: 0x9, payload: []))
            #expect(try client.readFrame() == .init(fin: true, opcode: 0x1, payload: Array("first".utf8)))
            #expect(try client.readFrame().closeCode == 1002)
            #expect(try client.waitForClose())
        }
    }

    @Test("a socket that pushed back reports its backlog and tells the handler when it drained")
    func drainHook() async throws {
        final class FloodHandler: WebSocketHandler {
            let events: Collector<String>
            init(events: Collector<String>) { self.events = events }

            func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
                let chunk = [UInt8](repeating: 0x5A, count: 256 * 1024)
                for _ in 0..<32 { socket.send(binary: chunk) }
                events.append("queued \(socket.bufferedBytes > 0)")
            }

            func webSocketDidDrain(_ socket: WebSocket) {
                events.append("drained \(socket.bufferedBytes)")
            }
        }
        let events = Collector<String>()
        let router = ClosureRouter { _, _ in .webSocket(FloodHandler(events: events)) }
        try await withServer(router: router) { server in
            let client = try TestClient(port: server.localAddress.port)
            _ = try client.openWebSocket(path: "/")
            try client.send(TestClient.frame(opcode: 0x1, payload: Array("go".utf8)))
            #expect(await events.wait(for: 1) == ["queued true"])
            for _ in 0..<32 { #expect(try client.readFrame().payload.count == 256 * 1024) }
            #expect(await events.wait(for: 2) == ["queued true", "drained 0"])
        }
    }

    @Test("graceful shutdown closes an open WebSocket with 1001")
    func shutdownGoingAway() async throws {
        var configuration = HTTPServer.Configuration(port: 0, threadCount: 1)
        configuration.webSocket.closeTimeout = .seconds(2)
        let server = try HTTPServer(configuration: configuration, router: TestRouter())
        let client = try TestClient(port: server.localAddress.port)
        _ = try client.openWebSocket(path: "/ws")
        let start = ContinuousClock.now
        let stopped = onThread { server.shutdown(gracePeriod: .seconds(3)) }
        #expect(try client.readCloseCode() == 1001)
        try client.send(TestClient.frame(opcode: 0x8, payload: [0x03, 0xE9]))
        #expect(try client.waitForClose())
        client.closeSocket()
        #expect(stopped(.seconds(5)))
        #expect(ContinuousClock.now - start < .seconds(2), "the answered close ends shutdown before its deadline")
    }
}
