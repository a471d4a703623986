import Testing

@testable import Courtside

/// `--upstream` parsed (docs/relay.md, "What runs (venue node)"): scheme, default ports, the relay path, IPv6
/// brackets, and the refusals naming the value.
@Suite("Upstream URL")
struct UpstreamURLTests {
    @Test("wss:// defaults to port 443 and /api/relay; ws:// to port 80")
    func defaults() throws {
        let secure = try UpstreamURL(parsing: "wss://scores.example.org")
        #expect(secure.secure && secure.host == "scores.example.org" && secure.port == 443)
        #expect(secure.path == "/api/relay" && secure.authority == "scores.example.org")
        let plain = try UpstreamURL(parsing: "ws://127.0.0.1")
        #expect(!plain.secure && plain.host == "127.0.0.1" && plain.port == 80)
    }

    @Test("a port, a path and an IPv6 address in brackets are taken as written")
    func explicitParts() throws {
        let url = try UpstreamURL(parsing: "wss://[2001:db8::1]:8443/relay/v1")
        #expect(url.host == "2001:db8::1" && url.port == 8443 && url.path == "/relay/v1")
        #expect(url.authority == "[2001:db8::1]:8443")
        #expect(try UpstreamURL(parsing: "wss://scores.example.org:443").authority == "scores.example.org")
        let bracketsOnly = try UpstreamURL(parsing: "wss://[::1]")
        #expect(bracketsOnly.host == "::1" && bracketsOnly.port == 443)
        #expect(try UpstreamURL(parsing: "ws://localhost:8080/").path == "/api/relay")
    }

    @Test(
        "other schemes, no host and bad ports are refused, naming the value",
        arguments: [
            ("https://scores.example.org", UpstreamURLError.notWebSocket("https://scores.example.org")),
            ("wss://", .invalid("wss://", problem: "has no host")),
            ("wss://:8443", .invalid("wss://:8443", problem: "has no host")),
            (
                "wss://user@scores.example.org",
                .invalid("wss://user@scores.example.org", problem: "must not hold a user or password")
            ),
            (
                "wss://scores.example.org:0",
                .invalid("wss://scores.example.org:0", problem: "has a bad port \"0\" (1-65535)")
            ),
            (
                "ws://scores.example.org:70000",
                .invalid("ws://scores.example.org:70000", problem: "has a bad port \"70000\" (1-65535)")
            ),
        ])
    func refusals(text: String, error: UpstreamURLError) {
        #expect(throws: error) { try UpstreamURL(parsing: text) }
    }
}
