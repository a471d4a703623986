import Testing

@testable import CourtsideHTTP

@Suite("Request parser: request line, headers, pipelining")
struct HTTPRequestParserTests {
    @Test("parses a simple GET with its headers in order")
    func simpleGet() throws {
        let request = try parseOne("GET /index.html HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nX-A: 1\r\n\r\n")
        #expect(request.head.method == .GET)
        #expect(request.head.target == "/index.html")
        #expect(request.head.path == "/index.html")
        #expect(request.head.query == nil)
        #expect(request.head.version == .http1_1)
        #expect(Array(request.head.headers).map(\.name) == ["Host", "Accept", "X-A"])
        #expect(request.head.headers["host"] == "example.com")
        #expect(request.body.isEmpty)
    }

    @Test("trims optional whitespace around field values and keeps inner spaces")
    func fieldValueWhitespace() throws {
        let request = try parseOne("GET / HTTP/1.1\r\nHost: h\r\nX-Thing: \t  a  b \t\r\nEmpty:\r\n\r\n")
        #expect(request.head.headers["x-thing"] == "a  b")
        #expect(request.head.headers["Empty"] == "")
    }

    @Test("splits the query and decodes the path")
    func query() throws {
        let request = try parseOne("GET /game%20one/state?since=42&x=a+b HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(request.head.path == "/game one/state")
        #expect(request.head.query == "since=42&x=a+b")
        #expect(request.head.queryValue(for: "since") == "42")
        #expect(request.head.queryValue(for: "x") == "a b")
        #expect(request.head.target == "/game%20one/state?since=42&x=a+b")
    }

    @Test("accepts absolute-form targets and takes their path")
    func absoluteForm() throws {
        let request = try parseOne("GET http://example.com:8080/a/b?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(request.head.path == "/a/b")
        #expect(request.head.query == "q=1")
        let bare = try parseOne("GET HTTPS://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(bare.head.path == "/")
    }

    @Test("accepts OPTIONS * and refuses * for other methods")
    func asteriskForm() throws {
        let request = try parseOne("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(request.head.path == "*")
        #expect(try parseError("GET * HTTP/1.1\r\nHost: h\r\n\r\n") == .invalidRequestTarget("*"))
    }

    @Test("maps method tokens, keeping unknown ones case-sensitively")
    func methods() throws {
        for (token, method) in [
            ("HEAD", HTTPMethod.HEAD), ("POST", .POST), ("DELETE", .DELETE), ("get", .other("get")),
        ] {
            let request = try parseOne("\(token) / HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(request.head.method == method)
            #expect(request.head.method.rawValue == token)
        }
    }

    @Test("skips empty lines before the request line (RFC 9112 §2.2)")
    func leadingEmptyLines() throws {
        let request = try parseOne("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(request.head.path == "/")
    }

    @Test("HTTP/1.0 does not need Host")
    func http10WithoutHost() throws {
        let request = try parseOne("GET / HTTP/1.0\r\n\r\n")
        #expect(request.head.version == .http1_0)
    }

    @Test("returns pipelined requests in order, with their bodies")
    func pipelining() throws {
        let input =
            "GET /one HTTP/1.1\r\nHost: h\r\n\r\n"
            + "POST /two HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
            + "PUT /three HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
            + "GET /four HTTP/1.1\r\nHost: h\r\n\r\n"
        let outcome = dripParse(input)
        #expect(outcome.error == nil)
        #expect(outcome.requests.map(\.head.path) == ["/one", "/two", "/three", "/four"])
        #expect(outcome.requests.map { String(decoding: $0.body, as: UTF8.self) } == ["", "hello", "abc", ""])
        #expect(outcome.buffered == 0)
    }

    @Test("a partial pipelined request waits for more data")
    func partialSecondRequest() {
        let outcome = dripParse("GET /one HTTP/1.1\r\nHost: h\r\n\r\nGET /tw")
        #expect(outcome.requests.count == 1)
        #expect(outcome.error == nil)
        #expect(outcome.buffered == 7)
    }

    @Test(
        "keep-alive: HTTP/1.1 on by default, HTTP/1.0 off by default, Connection tokens decide",
        arguments: [
            ("HTTP/1.1", "", true),
            ("HTTP/1.1", "Connection: close\r\n", false),
            ("HTTP/1.1", "connection: close\r\n", false),
            ("HTTP/1.1", "Connection: Keep-Alive, CLOSE\r\n", false),
            ("HTTP/1.1", "Connection: upgrade\r\n", true),
            ("HTTP/1.0", "", false),
            ("HTTP/1.0", "Connection: keep-alive\r\n", true),
            ("HTTP/1.0", "Connection: foo,  Keep-Alive \r\n", true),
            ("HTTP/1.0", "Connection: keep-alive\r\nConnection: close\r\n", false),
        ])
    func keepAlive(version: String, connection: String, expected: Bool) throws {
        let request = try parseOne("GET / \(version)\r\nHost: h\r\n\(connection)\r\n")
        #expect(request.head.keepAlive == expected)
    }

    @Test("hands over the bytes after an upgrade request, and parses nothing more")
    func unconsumedBytesForUpgrade() {
        var parser = HTTPRequestParser()
        let frame: [UInt8] = [0x81, 0x85, 1, 2, 3, 4, 0x49, 0x67, 0x6F, 0x68, 0x6E]
        parser.feed(Array("GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8))
        parser.feed(frame)
        guard case .request(let request) = parser.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(request.head.upgradeTokens == ["websocket"])
        #expect(parser.takeUnconsumedBytes() == frame)
        #expect(parser.bufferedByteCount == 0)
        #expect(parser.next() == .needMoreData)
    }

    @Test("stays failed after an error and ignores further input")
    func failureIsSticky() {
        var parser = HTTPRequestParser()
        parser.feed(Array("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n".utf8))
        #expect(parser.next() == .failed(.invalidHeaderName("Bad Name")))
        parser.feed(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(parser.next() == .failed(.invalidHeaderName("Bad Name")))
        #expect(parser.bufferedByteCount == 0)
    }

    @Test("is idle only between requests with nothing buffered")
    func idle() {
        var parser = HTTPRequestParser()
        #expect(parser.isIdle)
        parser.feed(Array("GET / HTTP/1.1\r\nHo".utf8))
        _ = parser.next()
        #expect(!parser.isIdle)
        parser.feed(Array("st: h\r\n\r\n".utf8))
        guard case .request = parser.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(parser.isIdle)
    }

    @Test("keeps its buffer compact over many pipelined requests fed byte by byte")
    func bufferStaysSmall() {
        var parser = HTTPRequestParser()
        let one = Array("GET /x HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        var count = 0
        for _ in 0..<200 {
            for byte in one {
                parser.feed(CollectionOfOne(byte))
                if case .request = parser.next() { count += 1 }
            }
            #expect(parser.bufferedByteCount == 0)
        }
        #expect(count == 200)
        #expect(parser.buffer.count <= one.count * 2)
    }

    @Test("between requests keeps a small buffer for the next one and gives a large one back, holding no bytes")
    func idleBuffer() {
        var parser = HTTPRequestParser()
        parser.feed(Array("GET /a HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        guard case .request = parser.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(parser.next() == .needMoreData)
        let small = parser.buffer.capacity
        parser.clearIdleBuffer()
        #expect(parser.bufferedByteCount == 0 && parser.buffer.isEmpty)
        #expect(parser.buffer.capacity == small && small > 0, "kept for the next request")
        parser.feed(Array("GET /b HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        guard case .request(let next) = parser.next() else {
            Issue.record("expected the next request")
            return
        }
        #expect(next.head.path == "/b")

        var large = HTTPRequestParser()
        large.feed(Array("GET /c HTTP/1.1\r\nHost: h\r\nX-Pad: \(String(repeating: "p", count: 3000))\r\n\r\n".utf8))
        guard case .request = large.next() else {
            Issue.record("expected a request")
            return
        }
        _ = large.next()
        large.clearIdleBuffer()
        #expect(large.buffer.capacity == 0, "more than HTTPRequestParser.idleCapacity is given back")
    }

    @Test("gives a large body's buffer back once the request is done")
    func releasesLargeBuffer() {
        var parser = HTTPRequestParser()
        let body = [UInt8](repeating: 0x61, count: 200_000)
        parser.feed(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 200000\r\n\r\n".utf8) + body)
        guard case .request(let request) = parser.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(request.body == body)
        parser.feed(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(parser.buffer.capacity < 100_000)
        guard case .request = parser.next() else {
            Issue.record("expected a request")
            return
        }
    }
}
