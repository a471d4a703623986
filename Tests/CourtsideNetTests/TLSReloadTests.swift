import CourtsideNet
import CourtsideTestSupport
import Testing

@Suite("TLS certificate reload", .serialized, .ownThread)
struct TLSReloadTests {
    @Test("after reloadTLS new connections get the new certificate while an open wss socket keeps echoing")
    func reloadKeepsOpenSockets() async throws {
        let old = try TestCertificate()
        defer { old.directory.remove() }
        let new = try TestCertificate()
        defer { new.directory.remove() }
        let oldContext = try old.serverContext()
        // Two loops, so the swap must reach every loop's accept path, not only the one that served the first client.
        let secure: (inout HTTPServer.Configuration) -> Void = { $0.tls = oldContext }
        try await withServer(threads: 2, configure: secure) { server in
            // Each self-signed certificate is its own CA: a verifying client tells which one the server presented.
            let trustsOld = try TLSContext.client(verify: true, caFile: old.certificatePath)
            let trustsNew = try TLSContext.client(verify: true, caFile: new.certificatePath)
            let open = try TestClient(port: server.localAddress.port)
            _ = try open.startTLS(context: trustsOld)
            _ = try open.openWebSocket(path: "/ws")
            try open.send(TestClient.frame(opcode: 0x1, payload: Array("before".utf8)))
            #expect(try open.readFrame().text == "before")
            #expect(throws: TestClientError.self) {
                _ = try TestClient(port: server.localAddress.port).startTLS(context: trustsNew)
            }

            server.reloadTLS(try new.serverContext())

            for attempt in 0..<4 {
                let fresh = try TestClient(port: server.localAddress.port)
                _ = try fresh.startTLS(context: trustsNew)
                try fresh.send("GET /n/\(attempt) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(try fresh.readResponse().text == "\(attempt)")
                #expect(throws: TestClientError.self) {
                    _ = try TestClient(port: server.localAddress.port).startTLS(context: trustsOld)
                }
            }
            // The socket opened before the reload still runs on the old context, both ways.
            try open.send(TestClient.frame(opcode: 0x1, payload: Array("after".utf8)))
            #expect(try open.readFrame().text == "after")
        }
    }
}
