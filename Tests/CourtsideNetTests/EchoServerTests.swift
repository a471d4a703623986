import CourtsideNet
import CourtsideTestSupport
import Foundation
import Glibc
import Testing

/// The `courtside-echo` executable, run as a child process (it sits next to the test bundle).
@Suite("courtside-echo", .serialized, .ownThread)
struct EchoServerTests {
    var echoPath: String { "\(productsDirectory)/courtside-echo" }

    @Test(
        "bad flags exit with status 2 and name the flag",
        arguments: [
            ([], "--port"), (["--port"], "--port"), (["--port", "http"], "--port"),
            (["--port", "1", "--bogus"], "--bogus"),
            (["--port", "1", "--tls-cert", "c.pem"], "--tls-key"), (["--port", "1", "--threads", "0"], "--threads"),
        ])
    func badFlags(arguments: [String], flag: String) throws {
        let result = try run(echoPath, arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(flag), "\(result.stderr)")
    }

    @Test("a missing certificate stops start-up with a message naming the file")
    func missingCertificate() throws {
        let result = try run(
            echoPath, ["--port", "0", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/cert.pem"), "\(result.stderr)")
    }

    @Test("SIGTERM closes open WebSockets with 1001 and the process exits 0")
    func sigterm() throws {
        let child = try WatchedProcess(echoPath, ["--port", "0", "--threads", "2"])
        defer { child.stop() }
        let port = try child.waitForPort()
        let client = try TestClient(port: port)
        _ = try client.openWebSocket(path: "/any/path")
        try client.send(TestClient.frame(opcode: 0x1, payload: Array("ping".utf8)))
        #expect(try client.readFrame().text == "ping")
        kill(child.pid, SIGTERM)
        #expect(try client.readCloseCode() == 1001)
        try client.send(TestClient.frame(opcode: 0x8, payload: [0x03, 0xE9]))
        #expect(try client.waitForClose())
        client.closeSocket()
        #expect(child.waitForExit(timeout: .seconds(8)))
        #expect(child.exitStatus == 0)
    }

    @Test("running out of file descriptors neither spins nor kills the server, and it recovers")
    func descriptorExhaustion() throws {
        let child = try WatchedProcess("/bin/sh", ["-c", "ulimit -n 48 && exec '\(echoPath)' --port 0 --threads 1"])
        defer { child.stop() }
        let port = try child.waitForPort()
        // Far more connections than descriptors: the later ones wait in the backlog while accept4 fails with EMFILE.
        var clients: [TestClient] = []
        for _ in 0..<80 { clients.append(try TestClient(port: port, timeout: .milliseconds(400))) }
        let last = try #require(clients.last)
        try last.send(TestClient.upgradeRequest(path: "/"))
        #expect(throws: TestClientError.self, "no answer while out of descriptors") { try last.readResponse() }

        let before = try #require(child.cpuTicks)
        Thread.sleep(forTimeInterval: 1)
        let after = try #require(child.cpuTicks)
        #expect(child.isRunning)
        #expect(after - before < 30, "CPU ticks in 1 s while exhausted: \(after - before) (100 = one core spinning)")

        clients.removeAll()  // frees the server's descriptors as it sees the closes
        let recovered = try eventually(within: .seconds(30), every: .milliseconds(100)) {
            guard let client = try? TestClient(port: port, timeout: .milliseconds(500)),
                (try? client.openWebSocket(path: "/")) != nil
            else { return false }
            try client.send(TestClient.frame(opcode: 0x1, payload: Array("back".utf8)))
            return (try? client.readFrame().text) == "back"
        }
        #expect(recovered, "accepting resumed once descriptors were free")
    }

    @Test("/pub publishes every text message verbatim to the /sub subscribers; other paths echo, compressed")
    func pubSub() throws {
        let child = try WatchedProcess(echoPath, ["--port", "0", "--threads", "2"])
        defer { child.stop() }
        let port = try child.waitForPort()
        let plain = try DeflateTestClient(port: port, path: "/sub", offer: nil)
        let compressed = try DeflateTestClient(port: port, path: "/sub")
        #expect(compressed.extensionResponse == "permessage-deflate")
        let publisher = try TestClient(port: port)
        _ = try publisher.openWebSocket(path: "/pub")
        for seq in 0..<50 {
            try publisher.send(TestClient.frame(opcode: 0x1, payload: Array(patchMessage(seq).utf8)))
        }
        try publisher.send(TestClient.frame(opcode: 0x2, payload: [1, 2, 3]))  // binary: not published
        try publisher.send(TestClient.frame(opcode: 0x1, payload: Array("last".utf8)))
        for client in [plain, compressed] {
            for seq in 0..<50 { #expect(try client.readMessage().text == patchMessage(seq)) }
            #expect(try client.readMessage().text == "last")
        }
        #expect(plain.compressedCount == 0)
        #expect(compressed.compressedCount > 40)
        let echo = try DeflateTestClient(port: port, path: "/anything")
        try echo.send(text: patchMessage(7), compressed: true)
        #expect(try echo.readMessage() == .init(text: patchMessage(7), compressed: true))
    }

    @Test("--no-deflate turns permessage-deflate off")
    func noDeflate() throws {
        let child = try WatchedProcess(echoPath, ["--port", "0", "--threads", "1", "--no-deflate"])
        defer { child.stop() }
        let client = try DeflateTestClient(port: try child.waitForPort(), path: "/")
        #expect(client.extensionResponse == nil)
        try client.send(text: patchMessage(1))
        #expect(try client.readMessage() == .init(text: patchMessage(1), compressed: false))
    }
}

@Suite("Command-line clients against the server", .serialized, .ownThread)
struct ToolInteropTests {
    @Test("curl fetches a static file over http and https, and openssl s_client completes a handshake")
    func curlAndOpenSSL() async throws {
        let root = TemporaryDirectory()
        defer { root.remove() }
        root.write("scores.txt", "home 3 away 1\n")
        let certificate = try TestCertificate()
        defer { certificate.directory.remove() }
        let tls = try certificate.serverContext()

        let plain: (inout HTTPServer.Configuration) -> Void = { $0.staticFiles = StaticFileServer(root: root.path) }
        try await withServer(configure: plain) { server in
            let result = try run(
                "/usr/bin/curl", ["-sS", "--max-time", "5", "http://127.0.0.1:\(server.localAddress.port)/scores.txt"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "home 3 away 1\n")
        }
        let secure: (inout HTTPServer.Configuration) -> Void = {
            $0.staticFiles = StaticFileServer(root: root.path)
            $0.tls = tls
        }
        try await withServer(configure: secure) { server in
            let port = server.localAddress.port
            let result = try run(
                "/usr/bin/curl",
                [
                    "-sS", "--max-time", "5", "--cacert", certificate.certificatePath,
                    "https://localhost:\(port)/scores.txt",
                ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "home 3 away 1\n")

            let handshake = try run(
                "/usr/bin/openssl",
                [
                    "s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost", "-brief",
                    "-CAfile", certificate.certificatePath, "-alpn", "http/1.1",
                ])
            let output = handshake.stdout + handshake.stderr
            #expect(output.contains("CONNECTION ESTABLISHED"), "\(output)")
            #expect(output.contains("Verification: OK"), "\(output)")
            #expect(output.contains("Protocol version: TLSv1."), "\(output)")
        }
    }
}
