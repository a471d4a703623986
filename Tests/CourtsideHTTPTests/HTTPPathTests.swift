import Testing

@testable import CourtsideHTTP

@Suite("Paths and queries")
struct HTTPPathTests {
    @Test("percent-decodes paths, keeping + literal")
    func decode() throws {
        #expect(try HTTPPath.decode("/a%20b/%C3%A9+c") == "/a b/é+c")
        #expect(try HTTPPath.decode("/plain") == "/plain")
        #expect(try HTTPPath.decode("/%2e%2E/x") == "/../x")
    }

    @Test(
        "refuses encoded slashes, NUL, bad escapes and invalid UTF-8",
        arguments: [
            ("/a%2Fb", HTTPPathError.encodedSlash), ("/a%2fb", .encodedSlash), ("/%00", .encodedNUL),
            ("/%", .invalidEscape), ("/%a", .invalidEscape), ("/%g0", .invalidEscape), ("/%c3", .invalidUTF8),
            ("/%c0%af", .invalidUTF8),
        ])
    func refuses(path: String, expected: HTTPPathError) {
        #expect(throws: expected) { try HTTPPath.decode(path) }
    }

    @Test("detects dot segments after decoding")
    func dotSegments() throws {
        #expect(HTTPPath.hasDotSegment("/../etc/passwd"))
        #expect(HTTPPath.hasDotSegment("/a/./b"))
        #expect(HTTPPath.hasDotSegment("/a/.."))
        #expect(HTTPPath.hasDotSegment(try HTTPPath.decode("/%2e%2e/secret")))
        #expect(HTTPPath.hasDotSegment(try HTTPPath.decode("/.%2e/secret")))
        #expect(!HTTPPath.hasDotSegment("/a..b/.hidden/..."))
        #expect(HTTPPath.segments("/a//b/") == ["a", "", "b", ""])
    }

    @Test("a request for ../ keeps the dot segment for the file server to refuse")
    func traversalThroughParser() throws {
        let request = try parseOne("GET /%2e%2e/%2E%2E/etc/passwd HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(request.head.path == "/../../etc/passwd")
        #expect(HTTPPath.hasDotSegment(request.head.path))
    }

    @Test("parses query items with form decoding, leniently")
    func queryItems() {
        let items = HTTPQueryItem.parse("since=42&name=a+b%21&flag&empty=&x=%zz&&=v&dup=1&dup=2")
        #expect(
            items == [
                HTTPQueryItem(name: "since", value: "42"), HTTPQueryItem(name: "name", value: "a b!"),
                HTTPQueryItem(name: "flag", value: ""), HTTPQueryItem(name: "empty", value: ""),
                HTTPQueryItem(name: "x", value: "%zz"), HTTPQueryItem(name: "", value: "v"),
                HTTPQueryItem(name: "dup", value: "1"), HTTPQueryItem(name: "dup", value: "2"),
            ])
        #expect(HTTPQueryItem.parse("").isEmpty)
        #expect(HTTPQueryItem.parse("a=b=c") == [HTTPQueryItem(name: "a", value: "b=c")])
    }

    @Test("encodes path segments so they cannot split")
    func encodeSegment() {
        #expect(HTTPPath.encodeSegment("a b/c?d#e%é") == "a%20b%2Fc%3Fd%23e%25%C3%A9")
        #expect(HTTPPath.encodeSegment("ok-._~:@!$&'()*+,;=") == "ok-._~:@!$&'()*+,;=")
    }
}
