import Testing

@testable import CourtsideHTTP

@Suite("Response encoding")
struct HTTPResponseEncoderTests {
    let date = "Sun, 06 Nov 1994 08:49:37 GMT"

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("encodes status line, headers in order, Content-Length, Date and body")
    func fullResponse() {
        let response = HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array("hi".utf8))
        let bytes = HTTPResponseEncoder.encode(response, keepAlive: true, date: date)
        #expect(
            text(bytes)
                == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nDate: \(date)\r\n\r\nhi")
    }

    @Test("says Connection: close when the server will close, keep-alive to an HTTP/1.0 client")
    func connection() {
        let response = HTTPResponse(status: .noContent)
        #expect(
            text(HTTPResponseEncoder.encode(response, keepAlive: false, date: date)).contains("Connection: close\r\n"))
        let kept = text(HTTPResponseEncoder.encode(response, keepAlive: true, requestVersion: .http1_0, date: date))
        #expect(kept.contains("Connection: keep-alive\r\n"))
        #expect(!text(HTTPResponseEncoder.encode(response, keepAlive: true, date: date)).contains("Connection"))
    }

    @Test("keeps a Connection header set by the caller, such as Upgrade on a 101")
    func upgradeConnection() {
        let response = HTTPResponse(
            status: .switchingProtocols, headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        let encoded = text(HTTPResponseEncoder.encode(response, keepAlive: false, date: date))
        #expect(encoded.hasPrefix("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"))
        #expect(!encoded.contains("Content-Length"))
        #expect(!encoded.contains("close"))
    }

    @Test("HEAD gets the Content-Length of the body without the body")
    func head() {
        let response = HTTPResponse(status: .ok, body: Array("hello".utf8))
        let encoded = text(HTTPResponseEncoder.encode(response, method: .HEAD, keepAlive: true, date: date))
        #expect(encoded.hasSuffix("Content-Length: 5\r\nDate: \(date)\r\n\r\n"))
        let declared = HTTPResponse(status: .ok, headers: ["Content-Length": "1234"])
        let declaredText = text(HTTPResponseEncoder.encode(declared, method: .HEAD, keepAlive: true, date: date))
        #expect(declaredText.contains("Content-Length: 1234\r\n"))
    }

    @Test("a GET response's Content-Length is always the body's, whatever the caller set")
    func lengthOverride() {
        let response = HTTPResponse(
            status: .ok, headers: ["Content-Length": "99", "Transfer-Encoding": "chunked"], body: [1, 2])
        let encoded = text(HTTPResponseEncoder.encode(response, keepAlive: true, date: date))
        #expect(encoded.contains("Content-Length: 2\r\n"))
        #expect(!encoded.contains("Content-Length: 99"))
        #expect(!encoded.contains("chunked"))
    }

    @Test("304 and 204 have neither length nor body")
    func noBodyStatuses() {
        for status in [HTTPStatus.notModified, .noContent] {
            let encoded = HTTPResponseEncoder.encode(
                HTTPResponse(status: status, body: [1, 2, 3]), keepAlive: true, date: date)
            #expect(!text(encoded).contains("Content-Length"))
            #expect(text(encoded).hasSuffix("\r\n\r\n"))
        }
    }

    @Test("a chunked head, chunks and the last chunk")
    func chunked() {
        let head = HTTPResponseEncoder.head(
            ServerSentEvent.streamResponse, framing: .chunked, keepAlive: true, date: date)
        #expect(text(head).contains("Transfer-Encoding: chunked\r\n"))
        #expect(text(head).contains("Content-Type: text/event-stream; charset=utf-8\r\n"))
        #expect(!text(head).contains("Content-Length"))
        #expect(
            text(HTTPResponseEncoder.chunk(Array("hello world, 26 bytes long".utf8)))
                == "1a\r\nhello world, 26 bytes long\r\n")
        #expect(HTTPResponseEncoder.chunk([UInt8]()).isEmpty)
        #expect(text(HTTPResponseEncoder.lastChunk) == "0\r\n\r\n")
    }

    @Test("CR, LF and NUL in header values cannot split the response")
    func responseSplitting() {
        let response = HTTPResponse(status: .ok, headers: ["X-Evil": "a\r\nSet-Cookie: b\0"])
        let encoded = text(HTTPResponseEncoder.encode(response, keepAlive: true, date: date))
        #expect(encoded.contains("X-Evil: a  Set-Cookie: b \r\n"))
        #expect(!encoded.contains("\r\nSet-Cookie"))
    }

    @Test("chunked responses round-trip through a chunked request parser")
    func chunkRoundTrip() throws {
        var body = Array("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        body +=
            HTTPResponseEncoder.chunk(Array("abc".utf8)) + HTTPResponseEncoder.chunk(Array(repeating: 0x41, count: 300))
        body += HTTPResponseEncoder.lastChunk
        let outcome = dripParse(body)
        #expect(outcome.requests.first?.body == Array("abc".utf8) + Array(repeating: 0x41, count: 300))
    }
}

@Suite("Response encoding for a parsed request")
struct HTTPResponseForRequestTests {
    @Test("takes HEAD, keep-alive and version from the request, and can force a close")
    func forRequest() throws {
        let response = HTTPResponse.text(.ok, "hello")
        let head10 = try parseOne("HEAD / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").head
        let text10 = String(decoding: HTTPResponseEncoder.encode(response, for: head10, date: "d"), as: UTF8.self)
        #expect(text10.contains("Connection: keep-alive\r\n"))
        #expect(text10.contains("Content-Length: 5\r\n"))
        #expect(text10.hasSuffix("\r\n\r\n"))
        let head11 = try parseOne("GET / HTTP/1.1\r\nHost: h\r\n\r\n").head
        let closing = HTTPResponseEncoder.encode(response, for: head11, keepAlive: false, date: "d")
        let text11 = String(decoding: closing, as: UTF8.self)
        #expect(text11.contains("Connection: close\r\n"))
        #expect(text11.hasSuffix("hello"))
    }
}

@Suite("Response encoding in parts")
struct HTTPResponseEncoderPartsTests {
    @Test("a large body is returned as the same array behind the head; the bytes equal encode's")
    func largeBody() {
        let body = [UInt8](repeating: 0x61, count: HTTPResponseEncoder.separateBodyBytes)
        let response = HTTPResponse(status: .ok, headers: ["Content-Type": "text/css"], body: body)
        let parts = HTTPResponseEncoder.encodeParts(response, keepAlive: true, date: "d")
        #expect(parts.body.count == body.count)
        #expect(
            parts.body.withUnsafeBufferPointer { $0.baseAddress } == body.withUnsafeBufferPointer { $0.baseAddress })
        #expect(parts.head + parts.body == HTTPResponseEncoder.encode(response, keepAlive: true, date: "d"))
    }

    @Test("small bodies, HEAD and 304 come in one buffer")
    func oneBuffer() {
        let small = HTTPResponse(status: .ok, body: Array("hi".utf8))
        let whole = HTTPResponseEncoder.encodeParts(small, keepAlive: false, date: "d")
        #expect(whole.body.isEmpty)
        #expect(whole.head == HTTPResponseEncoder.encode(small, keepAlive: false, date: "d"))
        let large = HTTPResponse(status: .ok, body: [UInt8](repeating: 1, count: 10_000))
        #expect(HTTPResponseEncoder.encodeParts(large, method: .HEAD, keepAlive: true, date: "d").body.isEmpty)
        let notModified = HTTPResponse(status: .notModified, body: [UInt8](repeating: 1, count: 10_000))
        #expect(HTTPResponseEncoder.encodeParts(notModified, keepAlive: true, date: "d").body.isEmpty)
    }
}
