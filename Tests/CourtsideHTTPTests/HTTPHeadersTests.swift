import Testing

@testable import CourtsideHTTP

@Suite("Headers")
struct HTTPHeadersTests {
    @Test("looks names up case-insensitively, first value wins")
    func lookup() {
        let headers: HTTPHeaders = ["Content-Type": "a", "X-Dup": "1", "x-dup": "2"]
        #expect(headers["content-type"] == "a")
        #expect(headers["X-DUP"] == "1")
        #expect(headers.values(for: "x-Dup") == ["1", "2"])
        #expect(headers["missing"] == nil)
        #expect(headers.contains("CONTENT-TYPE"))
        #expect(!HTTPHeaders.sameName("a-b", "a_b"))
        #expect(!HTTPHeaders.sameName("[", "{"))
    }

    @Test("splits comma-separated tokens, trimmed and lowercased")
    func tokens() {
        let headers: HTTPHeaders = ["Connection": " Upgrade ,keep-alive,, ", "connection": "Close"]
        #expect(headers.tokens(for: "Connection") == ["upgrade", "keep-alive", "close"])
        #expect(headers.tokens(for: "Upgrade").isEmpty)
    }

    @Test("adds, replaces and removes while keeping order")
    func mutation() {
        var headers = HTTPHeaders()
        headers.add(name: "A", value: "1")
        headers.add(name: "B", value: "2")
        headers.add(name: "a", value: "3")
        headers.replaceOrAdd(name: "A", value: "9")
        #expect(Array(headers).map(\.value) == ["9", "2"])
        headers.replaceOrAdd(name: "C", value: "4")
        #expect(Array(headers).map(\.name) == ["A", "B", "C"])
        headers.remove(name: "b")
        #expect(Array(headers).map(\.name) == ["A", "C"])
        #expect(headers.count == 2)
    }
}

@Suite("Header lookups without lists")
struct HTTPHeaderLookupTests {
    @Test("containsToken finds a list element in any field of that name, trimmed and ignoring case, as tokens does")
    func containsToken() {
        let headers: HTTPHeaders = [
            "Connection": "keep-alive ,\tUpgrade", "connection": "x, close", "Upgrade": "WebSocket",
        ]
        #expect(headers.containsToken("upgrade", for: "Connection"))
        #expect(headers.containsToken("close", for: "CONNECTION"))
        #expect(headers.containsToken("websocket", for: "upgrade"))
        #expect(!headers.containsToken("keep", for: "Connection"))
        #expect(!headers.containsToken("websocket", for: "Connection"))
        for token in ["keep-alive", "upgrade", "x", "close", "other"] {
            #expect(
                headers.containsToken(token, for: "Connection") == headers.tokens(for: "Connection").contains(token))
        }
    }

    @Test("firstValue counts the fields of a name and gives the first value; nil when there is none")
    func firstValue() {
        let headers: HTTPHeaders = ["A": "1", "b": "2", "a": "3"]
        #expect(headers.firstValue(for: "a")?.value == "1")
        #expect(headers.firstValue(for: "a")?.count == 2)
        #expect(headers.firstValue(for: "B")?.count == 1)
        #expect(headers.firstValue(for: "c") == nil)
    }

    @Test("containsEveryName says whether addAbsent would add nothing")
    func containsEveryName() {
        let headers: HTTPHeaders = ["A": "1", "B": "2"]
        #expect(headers.containsEveryName(of: ["a": "x"]))
        #expect(headers.containsEveryName(of: HTTPHeaders()))
        #expect(!headers.containsEveryName(of: ["a": "x", "C": "y"]))
    }
}
