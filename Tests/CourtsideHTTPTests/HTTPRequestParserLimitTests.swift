import Testing

@testable import CourtsideHTTP

@Suite("Request parser: limits and their statuses")
struct HTTPRequestParserLimitTests {
    let small = HTTPParserLimits(
        maxRequestLineBytes: 64, maxHeaderBytes: 128, maxHeaderCount: 4, maxBodyBytes: 16, maxChunkLineBytes: 16)

    @Test("a request line over the limit is 414")
    func requestLineTooLong() throws {
        let error = try parseError(
            "GET /\(String(repeating: "a", count: 80)) HTTP/1.1\r\nHost: h\r\n\r\n", limits: small)
        #expect(error == .requestLineTooLong(limit: 64))
        #expect(error.status == .uriTooLong)
        #expect(error.status.code == 414)
    }

    @Test("a request line exactly at the limit is accepted")
    func requestLineAtLimit() throws {
        let line = "GET /" + String(repeating: "a", count: 64 - 14) + " HTTP/1.1"
        #expect(line.utf8.count == 64)
        let request = try parseOne(line + "\r\nHost: h\r\n\r\n", limits: small)
        #expect(request.head.path.count == 51)
    }

    @Test("414 is answered before the line ends: the parser never holds more than the limit")
    func requestLineEarly() {
        var parser = HTTPRequestParser(limits: small)
        parser.feed(Array("GET /".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 60))
        #expect(parser.next() == .needMoreData)
        parser.feed([UInt8(ascii: "a")])
        #expect(parser.next() == .failed(.requestLineTooLong(limit: 64)))
    }

    @Test("a header section over the byte limit is 431, before its end arrives")
    func headerBytes() throws {
        let error = try parseError(
            "GET / HTTP/1.1\r\nHost: h\r\nX: \(String(repeating: "v", count: 200))", limits: small)
        #expect(error == .headerSectionTooLarge(limit: 128))
        #expect(error.status.code == 431)
    }

    @Test("the header byte limit counts every line and the final CRLF")
    func headerBytesBoundary() throws {
        // "Host: h\r\n" is 9 bytes; "X: " + value + CRLF; final CRLF 2. Total must be <= 128.
        let fits = "X: " + String(repeating: "v", count: 128 - 9 - 2 - 5) + "\r\n"
        #expect(try parseOne("GET / HTTP/1.1\r\nHost: h\r\n\(fits)\r\n", limits: small).head.headers.count == 2)
        let over = "X: " + String(repeating: "v", count: 128 - 9 - 2 - 5 + 1) + "\r\n"
        #expect(try parseError("GET / HTTP/1.1\r\nHost: h\r\n\(over)\r\n", limits: small).status.code == 431)
    }

    @Test("more header lines than the count limit is 431")
    func headerCount() throws {
        let fields = (0..<5).map { "X-\($0): 1\r\n" }.joined()
        let error = try parseError("GET / HTTP/1.1\r\nHost: h\r\n\(fields)\r\n", limits: small)
        #expect(error == .tooManyHeaders(limit: 4))
        #expect(error.status.code == 431)
        let four = (0..<3).map { "X-\($0): 1\r\n" }.joined()
        #expect(try parseOne("GET / HTTP/1.1\r\nHost: h\r\n\(four)\r\n", limits: small).head.headers.count == 4)
    }

    @Test("a declared body over the limit is 413 without waiting for the body")
    func contentLengthTooLarge() throws {
        let error = try parseError("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 17\r\n\r\n", limits: small)
        #expect(error == .bodyTooLarge(limit: 16))
        #expect(error.status.code == 413)
        let huge = try parseError("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n")
        #expect(huge.status.code == 413)
    }

    @Test("a body exactly at the limit is accepted")
    func bodyAtLimit() throws {
        let body = String(repeating: "b", count: 16)
        let request = try parseOne("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 16\r\n\r\n\(body)", limits: small)
        #expect(request.body.count == 16)
    }

    @Test("chunked bodies over the limit are 413 as soon as the chunk size says so")
    func chunkedTooLarge() throws {
        let error = try parseError(
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n9\r\n", limits: small)
        #expect(error == .bodyTooLarge(limit: 16))
        let giant = try parseError(
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n")
        #expect(giant.status.code == 413)
    }

    @Test("a chunk-size line over its limit is 400")
    func chunkLineTooLong() throws {
        let error = try parseError(
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1;\(String(repeating: "e", count: 40))\r\n",
            limits: small)
        #expect(error == .chunkLineTooLong(limit: 16))
        #expect(error.status.code == 400)
    }

    @Test("trailer sections obey the header limits")
    func trailerLimits() throws {
        let trailers = (0..<5).map { "T-\($0): 1\r\n" }.joined()
        let error = try parseError(
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\(trailers)\r\n", limits: small)
        #expect(error == .tooManyHeaders(limit: 4))
        let long = try parseError(
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: \(String(repeating: "t", count: 200))",
            limits: small)
        #expect(long == .headerSectionTooLarge(limit: 128))
    }

    @Test("defaults are documented values")
    func defaults() {
        let limits = HTTPParserLimits.default
        #expect(limits.maxRequestLineBytes == 8192)
        #expect(limits.maxHeaderBytes == 16384)
        #expect(limits.maxHeaderCount == 100)
        #expect(limits.maxBodyBytes == 1_048_576)
    }
}
