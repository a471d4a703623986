import CourtsideNet
import CourtsideTestSupport
import Testing

@Suite("TLS over loopback", .serialized, .ownThread)
struct TLSServerTests {
    @Test("a TLS handshake completes and a WebSocket echoes over it (wss)")
    func secureEcho() async throws {
        let certificate = try TestCertificate()
        defer { certificate.directory.remove() }
        let serverContext = try certificate.serverContext()
        let secure: (inout HTTPServer.Configuration) -> Void = { $0.tls = serverContext }
        try await withServer(configure: secure) { server in
            let client = try TestClient(port: server.localAddress.port)
            let tls = try client.startTLS(context: TLSContext.client(verify: false))
            #expect(tls.negotiatedApplicationProtocol == "http/1.1")
            _ = try client.openWebSocket(path: "/ws")
            try client.send(TestClient.frame(opcode: 0x1, payload: Array("over tls".utf8)))
            #expect(try client.readFrame().text == "over tls")
            // Several frames written in one iteration are joined into records and all arrive.
            try client.send((0..<10).flatMap { TestClient.frame(opcode: 0x1, payload: Array("m\($0)".utf8)) })
            var texts: [String] = []
            for _ in 0..<10 { texts.append(try client.readFrame().text) }
            #expect(texts == (0..<10).map { "m\($0)" })
        }
    }

    @Test("HTTP over TLS answers pipelined requests and closes with close_notify")
    func secureHTTP() async throws {
        let certificate = try TestCertificate()
        defer { certificate.directory.remove() }
        let serverContext = try certificate.serverContext()
        let secure: (inout HTTPServer.Configuration) -> Void = { $0.tls = serverContext }
        try await withServer(configure: secure) { server in
            let client = try TestClient(port: server.localAddress.port)
            _ = try client.startTLS(context: TLSContext.client(verify: false))
            try client.send(
                "GET /n/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /n/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(try client.readResponse().text == "1")
            #expect(try client.readResponse().text == "2")
            #expect(try client.readToEnd().isEmpty)
        }
    }

    @Test("a client that never completes the TLS handshake is closed at the deadline")
    func handshakeTimeout() async throws {
        let certificate = try TestCertificate()
        defer { certificate.directory.remove() }
        let serverContext = try certificate.serverContext()
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.tls = serverContext
            $0.tlsHandshakeTimeout = .milliseconds(150)
        }
        try await withServer(configure: configure) { server in
            let client = try TestClient(port: server.localAddress.port)
            let start = ContinuousClock.now
            #expect(try client.waitForClose())
            #expect(ContinuousClock.now - start < .seconds(2))
        }
    }
}
