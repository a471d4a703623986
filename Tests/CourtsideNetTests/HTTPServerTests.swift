import CourtsideNet
import CourtsideTestSupport
import Glibc
import Testing

@Suite("HTTP/1.1 over loopback", .serialized, .ownThread)
struct HTTPServerTests {
    @Test("pipelined requests are answered in order on one connection")
    func pipelining() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            let requests = (1...20).map { "GET /n/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
            try client.send(requests)
            var bodies: [String] = []
            for _ in 1...20 { bodies.append(try client.readResponse().text) }
            #expect(bodies == (1...20).map(String.init))
        }
    }

    @Test("a pipelined request split at every byte gives the same answers")
    func pipeliningByteByByte() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            let requests = Array(
                "GET /n/1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo-body HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                    .utf8)
            for byte in requests { try client.send([byte]) }
            #expect(try client.readResponse().text == "1")
            #expect(try client.readResponse().text == "abc")
        }
    }

    @Test("Connection: close is honoured after the response")
    func connectionClose() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            try client.send(
                "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.header("Connection") == "close")
            #expect(try client.readToEnd().isEmpty, "the second request is not answered")
        }
    }

    @Test("a HEAD request gets headers without a body")
    func head() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.localAddress.port)
            try client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try client.readResponse(head: true)
            #expect(head.header("Content-Length") == "5")
            #expect(head.header("Date") != nil)
            #expect(try client.readResponse().text == "hello")
        }
    }

    @Test(
        "parser limits are enforced over the socket with their status",
        arguments: [
            ("GET /\(String(repeating: "a", count: 300)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 600))\r\n\r\n", 431),
            ("POST /echo-body HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n", 413),
            ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            ("BROKEN\r\n\r\n", 400),
        ])
    func limits(request: String, status: Int) async throws {
        let small: (inout HTTPServer.Configuration) -> Void = {
            $0.parserLimits = HTTPParserLimits(maxRequestLineBytes: 200, maxHeaderBytes: 512, maxBodyBytes: 1000)
        }
        try await withServer(configure: small) { server in
            let client = try TestClient(port: server.localAddress.port)
            try client.send(request)
            let response = try client.readResponse()
            #expect(response.status == status)
            #expect(response.header("Connection") == "close")
            #expect(try client.waitForClose())
        }
    }

    @Test("static files: content, index.html, ETag revalidation, and nothing outside the root")
    func staticFiles() async throws {
        let root = TemporaryDirectory()
        defer { root.remove() }
        root.write("site/index.html", "<h1>court</h1>")
        root.write("site/app.js", "console.log(1)")
        root.write("secret.txt", "outside the root")
        _ = symlink("\(root.path)/secret.txt", "\(root.path)/site/link.txt")
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.staticFiles = StaticFileServer(root: "\(root.path)/site")
        }
        try await withServer(configure: configure) { server in
            let client = try TestClient(port: server.localAddress.port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let index = try client.readResponse()
            #expect(index.status == 200)
            #expect(index.text == "<h1>court</h1>")
            #expect(index.header("Content-Type")?.hasPrefix("text/html") == true)
            let etag = try #require(index.header("ETag"))
            try client.send("GET /index.html HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(etag)\r\n\r\n")
            #expect(try client.readResponse().status == 304)
            try client.send("GET /app.js HTTP/1.1\r\nHost: x\r\n\r\n")
            let script = try client.readResponse()
            #expect(script.text == "console.log(1)")
            #expect(script.header("Cache-Control") != nil)

            for attempt in [
                "/../secret.txt", "/%2e%2e/secret.txt", "/site/..%2fsecret.txt", "/%2E%2E%2Fsecret.txt",
                "/link.txt", "/app.js%00.html", "/./../secret.txt",
            ] {
                let probe = try TestClient(port: server.localAddress.port)
                try probe.send("GET \(attempt) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try probe.readResponse()
                #expect([400, 403, 404].contains(response.status), "\(attempt) → \(response.status)")
                #expect(!response.text.contains("outside the root"), "\(attempt) leaked the file")
            }
        }
    }

    @Test("a server-sent event stream delivers events and keep-alive comments")
    func eventStream() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.eventStreamKeepAliveInterval = .milliseconds(50)
        }
        try await withServer(configure: configure) { server in
            let client = try TestClient(port: server.localAddress.port)
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
            let head = try client.readResponse(head: true)
            #expect(head.status == 200)
            #expect(head.header("Content-Type")?.hasPrefix("text/event-stream") == true)
            #expect(head.header("Transfer-Encoding") == "chunked")
            var text = ""
            for _ in 0..<50 where !text.contains(": keep-alive") {
                try client.fill("events")
                text = String(decoding: client.buffer, as: UTF8.self)
            }
            #expect(text.contains("id: 1\nevent: score\ndata: home 1\ndata: away 0\n\n"))
            #expect(text.contains(": keep-alive\n\n"))
        }
    }

    @Test("a client that never finishes its headers gets 408 and is closed (slowloris)")
    func requestTimeout() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = { $0.requestTimeout = .milliseconds(200) }
        try await withServer(configure: configure) { server in
            let client = try TestClient(port: server.localAddress.port)
            let start = ContinuousClock.now
            for piece in ["GET / HT", "TP/1.1\r\n", "Host: x\r\n"] {
                try client.send(piece)
                await pause(for: .milliseconds(80))
            }
            let response = try client.readResponse()
            #expect(response.status == 408)
            #expect(try client.waitForClose())
            #expect(ContinuousClock.now - start < .seconds(2), "trickling bytes does not extend the deadline")
        }
    }

    @Test("an idle keep-alive connection and a silent new connection are closed")
    func idleTimeouts() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.keepAliveTimeout = .milliseconds(150)
            $0.requestTimeout = .milliseconds(150)
        }
        try await withServer(configure: configure) { server in
            let idle = try TestClient(port: server.localAddress.port)
            try idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try idle.readResponse().status == 200)
            let silent = try TestClient(port: server.localAddress.port)
            let start = ContinuousClock.now
            #expect(try idle.waitForClose())
            #expect(try silent.readToEnd().isEmpty, "a silent connection is closed without a response")
            #expect(ContinuousClock.now - start < .seconds(2))
        }
    }

    @Test("a client that pipelines without reading is paused, then fully answered")
    func pipelineBackpressure() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = { $0.maxQueuedResponseBytes = 4096 }
        try await withServer(configure: configure) { server in
            let client = try TestClient(port: server.localAddress.port)
            let count = 2000
            try client.send((0..<count).map { "GET /n/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            for index in 0..<count {
                #expect(try client.readResponse().text == String(index))
            }
        }
    }
}
