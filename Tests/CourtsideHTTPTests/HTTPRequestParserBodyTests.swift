import Testing

@testable import CourtsideHTTP

@Suite("Request parser: bodies, chunked coding, smuggling")
struct HTTPRequestParserBodyTests {
    @Test("reads a Content-Length body")
    func contentLength() throws {
        let request = try parseOne("POST /cmd HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n{\"a\":\"b c\"}")
        #expect(String(decoding: request.body, as: UTF8.self) == "{\"a\":\"b c\"}")
    }

    @Test("Content-Length: 0 completes at once, identical repeats are accepted")
    func zeroAndRepeatedLength() throws {
        #expect(try parseOne("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n").body.isEmpty)
        let listed = try parseOne("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc")
        #expect(listed.body == Array("abc".utf8))
    }

    @Test("a body that has not fully arrived waits")
    func partialBody() {
        let outcome = dripParse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc")
        #expect(outcome.requests.isEmpty)
        #expect(outcome.error == nil)
    }

    @Test("de-chunks a chunked body with extensions and trailers")
    func chunked() throws {
        let input =
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n"
            + "1 ; ext\r\n \r\n"
            + "A\r\n0123456789\r\n"
            + "000\r\nTrailer-One: x\r\n\r\n"
        let request = try parseOne(input)
        #expect(String(decoding: request.body, as: UTF8.self) == "hello 0123456789")
        #expect(request.head.headers["Trailer-One"] == nil)
        #expect(request.head.headers.tokens(for: "Transfer-Encoding") == ["chunked"])
    }

    @Test("Transfer-Encoding tokens are case-insensitive")
    func chunkedCase() throws {
        let request = try parseOne(
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n")
        #expect(request.body == [UInt8(ascii: "x")])
    }

    @Test(
        "malformed chunked framing is 400",
        arguments: [
            ("zz\r\n", HTTPParseError.invalidChunkSize("zz")),
            ("\r\n", .invalidChunkSize("")),
            ("-1\r\n", .invalidChunkSize("-1")),
            ("5 x\r\n", .invalidChunkSize("5 x")),
            ("0x5\r\n", .invalidChunkSize("0x5")),
            ("3\r\nabcX\r\n", .missingChunkTerminator),
            ("3\r\nabc\rX", .missingChunkTerminator),
            ("3\nabc\r\n", .invalidLineEnding(context: "chunk size")),
            ("0\r\nBad Trailer: x\r\n\r\n", .invalidHeaderName("Bad Trailer")),
            ("0\r\nTrailer : x\r\n\r\n", .whitespaceBeforeColon(name: "Trailer")),
        ])
    func badChunks(body: String, expected: HTTPParseError) throws {
        let error = try parseError("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\(body)")
        #expect(error == expected)
        #expect(error.status.code == 400)
    }

    @Test(
        "request smuggling attempts are refused",
        arguments: [
            ("Content-Length: 3\r\nContent-Length: 4\r\n", HTTPParseError.conflictingContentLength(["3", "4"])),
            ("Content-Length: 3, 4\r\n", .conflictingContentLength(["3, 4"])),
            ("Content-Length: 3\r\nTransfer-Encoding: chunked\r\n", .transferEncodingWithContentLength),
            ("Transfer-Encoding: chunked\r\nContent-Length: 3\r\n", .transferEncodingWithContentLength),
            // Names in any case: framing fields are noted as they arrive, compared ignoring case (RFC 9110 §5.1).
            ("content-length: 3\r\ntRANSFER-eNCODING: chunked\r\n", .transferEncodingWithContentLength),
            ("CONTENT-LENGTH: 3\r\ncontent-length: 4\r\n", .conflictingContentLength(["3", "4"])),
            ("Transfer-Encoding: chunked, identity\r\n", .invalidTransferEncoding("chunked, identity")),
            (
                "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
                .invalidTransferEncoding("chunked, chunked")
            ),
            ("Transfer-Encoding: \r\n", .invalidTransferEncoding("")),
            ("Transfer-Encoding: xchunked\r\n", .invalidTransferEncoding("xchunked")),
            ("Content-Length: +3\r\n", .invalidContentLength("+3")),
            ("Content-Length: -1\r\n", .invalidContentLength("-1")),
            ("Content-Length: 3 3\r\n", .invalidContentLength("3 3")),
            ("Content-Length: 0x3\r\n", .invalidContentLength("0x3")),
            ("Content-Length:\r\n", .invalidContentLength("")),
            ("Content-Length: 3,\r\n", .invalidContentLength("3,")),
        ])
    func smuggling(fields: String, expected: HTTPParseError) throws {
        let error = try parseError("POST / HTTP/1.1\r\nHost: h\r\n\(fields)\r\nabc")
        #expect(error == expected)
        #expect(error.status.code == 400)
    }

    @Test("a coding under chunked is not implemented: 501")
    func gzipChunked() throws {
        let error = try parseError("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
        #expect(error == .unsupportedTransferEncoding("gzip, chunked"))
        #expect(error.status.code == 501)
    }

    @Test("Transfer-Encoding in an HTTP/1.0 request is 400")
    func transferEncodingHTTP10() throws {
        let error = try parseError("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        #expect(error == .invalidTransferEncoding("chunked"))
    }

    @Test("a smuggled second request inside a body stays body")
    func smuggledInsideBody() throws {
        let inner = "GET /admin HTTP/1.1\r\nHost: h\r\n\r\n"
        let outcome = dripParse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(inner.utf8.count)\r\n\r\n\(inner)")
        #expect(outcome.requests.count == 1)
        #expect(outcome.requests.first?.body == Array(inner.utf8))
    }
}
