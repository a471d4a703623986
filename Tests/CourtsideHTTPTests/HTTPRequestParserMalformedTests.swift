import Testing

@testable import CourtsideHTTP

@Suite("Request parser: malformed requests")
struct HTTPRequestParserMalformedTests {
    @Test(
        "malformed request lines are 400 with the reason",
        arguments: [
            (
                "GET  / HTTP/1.1\r\n",
                HTTPParseError.malformedRequestLine(
                    reason: "expected method, target and version separated by single spaces")
            ),
            (
                "GET /\r\n",
                .malformedRequestLine(reason: "expected method, target and version separated by single spaces")
            ),
            (
                "GET / HTTP/1.1 extra\r\n",
                .malformedRequestLine(reason: "expected method, target and version separated by single spaces")
            ),
            ("G(T / HTTP/1.1\r\n", .invalidMethod("G(T")),
            (
                "GET\t/ HTTP/1.1\r\n",
                .malformedRequestLine(reason: "expected method, target and version separated by single spaces")
            ),
            ("GET / HTTP/1.1x\r\n", .malformedVersion("HTTP/1.1x")),
            ("GET / http/1.1\r\n", .malformedVersion("http/1.1")),
            ("GET / HTTP/1\r\n", .malformedVersion("HTTP/1")),
            ("GET /a#frag HTTP/1.1\r\n", .invalidRequestTarget("/a#frag")),
            ("GET a/b HTTP/1.1\r\n", .invalidRequestTarget("a/b")),
            ("CONNECT example.com:443 HTTP/1.1\r\n", .invalidRequestTarget("example.com:443")),
            ("GET ftp://x/ HTTP/1.1\r\n", .invalidRequestTarget("ftp://x/")),
            ("GET http:///path HTTP/1.1\r\n", .invalidRequestTarget("http:///path")),
            ("GET /a%2fb HTTP/1.1\r\n", .invalidPath(target: "/a%2fb", reason: "encoded slash (%2F)")),
            ("GET /a%2Fb HTTP/1.1\r\n", .invalidPath(target: "/a%2Fb", reason: "encoded slash (%2F)")),
            ("GET /a%00b HTTP/1.1\r\n", .invalidPath(target: "/a%00b", reason: "encoded NUL (%00)")),
            ("GET /a%zz HTTP/1.1\r\n", .invalidPath(target: "/a%zz", reason: "bad percent escape")),
            ("GET /a%4 HTTP/1.1\r\n", .invalidPath(target: "/a%4", reason: "bad percent escape")),
            ("GET /%ff HTTP/1.1\r\n", .invalidPath(target: "/%ff", reason: "decodes to invalid UTF-8")),
        ])
    func malformedRequestLine(line: String, expected: HTTPParseError) throws {
        let error = try parseError(line + "Host: h\r\n\r\n")
        #expect(error == expected)
        #expect(error.status == .badRequest)
    }

    @Test("a non-ASCII byte in the target is 400")
    func nonASCIITarget() throws {
        let error = try parseError(Array("GET /".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(error.status.code == 400)
    }

    @Test("versions other than 1.0 and 1.1 are 505", arguments: ["HTTP/2.0", "HTTP/0.9", "HTTP/1.2", "HTTP/3.0"])
    func unsupportedVersion(version: String) throws {
        let error = try parseError("GET / \(version)\r\nHost: h\r\n\r\n")
        #expect(error.status == .httpVersionNotSupported)
        if case .unsupportedVersion = error {} else { Issue.record("expected unsupportedVersion, got \(error)") }
    }

    @Test(
        "malformed header sections are 400 with the reason",
        arguments: [
            ("Host: h\r\n folded\r\n", HTTPParseError.obsoleteLineFolding),
            ("Host: h\r\n\tfolded\r\n", .obsoleteLineFolding),
            (" Host: h\r\n", .obsoleteLineFolding),
            ("Host : h\r\n", .whitespaceBeforeColon(name: "Host")),
            ("Host\t: h\r\n", .whitespaceBeforeColon(name: "Host")),
            ("Host: h\r\nNo colon here\r\n", .missingColon(line: "No colon here")),
            ("Host: h\r\n: empty name\r\n", .invalidHeaderName("")),
            ("Host: h\r\nBad(Name): x\r\n", .invalidHeaderName("Bad(Name)")),
            ("Host: h\r\nBad\"Name: x\r\n", .invalidHeaderName("Bad\"Name")),
            ("Host: h\r\nX: a\u{01}b\r\n", .invalidHeaderValue(name: "X")),
            ("Host: h\r\nX: a\u{7F}b\r\n", .invalidHeaderValue(name: "X")),
            ("Host: h\r\nX: a\u{00}b\r\n", .invalidHeaderValue(name: "X")),
            ("Host: h\r\nX: a\rb\r\n", .invalidLineEnding(context: "header section")),
            ("Host: h\nX: b\r\n", .invalidLineEnding(context: "header section")),
            ("Host: h\r\n\n", .invalidLineEnding(context: "header section")),
            ("", .invalidHost(reason: "HTTP/1.1 request without Host")),
            ("Host: a\r\nHost: b\r\n", .invalidHost(reason: "more than one Host field")),
            ("host: a\r\nHOST: b\r\n", .invalidHost(reason: "more than one Host field")),
            ("Hostx: a\r\n", .invalidHost(reason: "HTTP/1.1 request without Host")),
        ])
    func malformedHeaders(fields: String, expected: HTTPParseError) throws {
        let error = try parseError("GET / HTTP/1.1\r\n\(fields)\r\n")
        #expect(error == expected)
        #expect(error.status.code == 400)
        #expect(!error.description.isEmpty)
    }

    @Test("a bare LF or bare CR in the request line is 400")
    func bareLineEndings() throws {
        #expect(try parseError("GET / HTTP/1.1\nHost: h\r\n\r\n") == .invalidLineEnding(context: "request line"))
        #expect(try parseError("GET /\r HTTP/1.1\r\nHost: h\r\n\r\n") == .invalidLineEnding(context: "request line"))
        #expect(try parseError("\n") == .invalidLineEnding(context: "request line"))
    }

    @Test("obs-text bytes in a value are accepted")
    func obsText() throws {
        let input = Array("GET / HTTP/1.1\r\nHost: h\r\nX: caf".utf8) + [0xC3, 0xA9] + Array("\r\n\r\n".utf8)
        let outcome = dripParse(input)
        #expect(outcome.requests.first?.head.headers["X"] == "café")
    }

    @Test("the error response names the status and the reason")
    func errorResponse() {
        let response = HTTPResponse.error(.whitespaceBeforeColon(name: "Host"))
        #expect(response.status.code == 400)
        #expect(String(decoding: response.body, as: UTF8.self).contains("whitespace between header name"))
    }
}
