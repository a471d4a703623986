import Testing

@testable import CourtsideHTTP

/// Heads encoded once (`HTTPPreparedHead`) and the static files that use them: the bytes on the wire must be the
/// ones the field-by-field encoder writes, whatever the connection.
@Suite("Prepared response heads")
struct PreparedHeadTests {
    let date = "Sun, 06 Nov 1994 08:49:37 GMT"

    func response(bodyBytes: Int) -> HTTPResponse {
        HTTPResponse(
            status: .ok,
            headers: ["Content-Type": "text/css", "Cache-Control": "public, max-age=60", "ETag": "\"1-2-3\""],
            body: Array(repeating: UInt8(ascii: "a"), count: bodyBytes))
    }

    @Test(
        "a prepared head encodes byte for byte as the fields do, for every connection and method",
        arguments: [10, HTTPResponseEncoder.separateBodyBytes + 1])
    func sameBytes(bodyBytes: Int) {
        let plain = response(bodyBytes: bodyBytes)
        let prepared = plain.preparingHead(contentLength: bodyBytes)
        #expect(prepared.prepared != nil)
        for (keepAlive, version) in [(true, HTTPVersion.http1_1), (false, .http1_1), (true, .http1_0)] {
            let expected = HTTPResponseEncoder.encodeParts(
                plain, keepAlive: keepAlive, requestVersion: version, date: date)
            let actual = HTTPResponseEncoder.encodeParts(
                prepared, keepAlive: keepAlive, requestVersion: version, date: date)
            #expect(actual.head == expected.head, "keepAlive \(keepAlive), \(version)")
            #expect(actual.body == expected.body)
        }
        var headHeaders = plain.headers
        headHeaders.add(name: "Content-Length", value: String(bodyBytes))
        let head = HTTPResponse(status: .ok, headers: headHeaders)
        #expect(
            HTTPResponseEncoder.encode(
                head.preparingHead(contentLength: bodyBytes), method: .HEAD, keepAlive: true, date: date)
                == HTTPResponseEncoder.encode(head, method: .HEAD, keepAlive: true, date: date))
    }

    @Test("changing the status or a header drops the prepared head, and the change is sent")
    func changeDrops() {
        var changed = response(bodyBytes: 3).preparingHead(contentLength: 3)
        changed.headers.add(name: "X-Late", value: "1")
        #expect(changed.prepared == nil)
        let text = String(decoding: HTTPResponseEncoder.encode(changed, keepAlive: true, date: date), as: UTF8.self)
        #expect(text.contains("X-Late: 1\r\n"))
        var status = response(bodyBytes: 3).preparingHead(contentLength: 3)
        status.status = .notFound
        #expect(status.prepared == nil)
        #expect(
            String(decoding: HTTPResponseEncoder.encode(status, keepAlive: true, date: date), as: UTF8.self)
                .hasPrefix("HTTP/1.1 404 "))
    }

    @Test("a prepared head is used only for the length it states: another body gets its own Content-Length")
    func lengthChecked() {
        var resized = response(bodyBytes: 3).preparingHead(contentLength: 3)
        resized.body = Array("12345".utf8)
        let text = String(decoding: HTTPResponseEncoder.encode(resized, keepAlive: true, date: date), as: UTF8.self)
        #expect(text.contains("Content-Length: 5\r\n"))
        #expect(!text.contains("Content-Length: 3\r\n"))
    }

    @Test("a response that sets Connection or Date itself, or has no body by its status, is not prepared")
    func notPrepared() {
        var own = response(bodyBytes: 3)
        own.headers.add(name: "Connection", value: "close")
        #expect(own.preparingHead(contentLength: 3).prepared == nil)
        #expect(HTTPResponse(status: .notModified).preparingHead(contentLength: 0).prepared == nil)
    }

    /// What `HTTPServer.Configuration` decorates answers with, by path.
    static func defaults(_ path: String) -> HTTPHeaders {
        path.hasSuffix(".html")
            ? ["X-Frame-Options": "DENY", "X-Content-Type-Options": "other"] : ["Content-Security-Policy": "none"]
    }

    @Test("a prepared static server answers with its response headers, as decorating each answer would")
    func preparedStaticServer() throws {
        let fixture = try StaticFixture()
        let plain = fixture.server
        let prepared = plain.preparing(responseHeaders: Self.defaults)
        for (method, target) in [("GET", "/index.html"), ("HEAD", "/index.html"), ("GET", "/style.css"), ("GET", "/")] {
            let head = try fixture.head(method, target)
            let answer = prepared.respond(to: head).response
            #expect(answer.prepared != nil, "\(method) \(target)")
            // Marked, so the server does not check its defaults again per request; the plain server's are not.
            #expect(answer.prepared?.includesServerDefaults == true, "\(method) \(target)")
            #expect(plain.respond(to: head).response.prepared?.includesServerDefaults == false)
            var decorated = plain.respond(to: head).response
            decorated.headers.addAbsent(Self.defaults(head.path))
            #expect(answer.headers.containsEveryName(of: Self.defaults(head.path)))
            #expect(answer.headers["X-Content-Type-Options"] == "nosniff")  // the file's own value wins
            #expect(
                HTTPResponseEncoder.encode(answer, for: head, date: date)
                    == HTTPResponseEncoder.encode(decorated, for: head, date: date), "\(method) \(target)")
        }
        // A 304 carries them too (RFC 9111 §4.3.4 updates the stored headers from it).
        let etag = try #require(prepared.respond(to: try fixture.head("GET", "/index.html")).response.headers["ETag"])
        let revalidated = prepared.respond(to: try fixture.head("GET", "/index.html", "If-None-Match: \(etag)\r\n"))
        #expect(revalidated.response.status == .notModified)
        #expect(revalidated.response.headers["X-Frame-Options"] == "DENY")
    }
}
