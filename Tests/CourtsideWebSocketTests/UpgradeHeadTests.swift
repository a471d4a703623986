import CourtsideHTTP
import Testing

@testable import CourtsideWebSocket

/// The prepared 101 (`WebSocketUpgradeHead`) against the general path it replaces: the request's
/// `WebSocketUpgradeRequest.response`, the server's headers added where absent, `HTTPResponseEncoder.head`.
@Suite("Prepared 101 head")
struct UpgradeHeadTests {
    static let date = "Wed, 02 Dec 2026 04:00:00 GMT"
    static let security: HTTPHeaders = [
        "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
        "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'", "X-Frame-Options": "DENY",
    ]

    static func request() throws -> WebSocketUpgradeRequest {
        try WebSocketHandshake.validate(upgradeHead()).get()
    }

    /// The general path's bytes for the same answer.
    static func general(
        _ request: WebSocketUpgradeRequest, server: HTTPHeaders, subprotocol: String?, extensions: String?
    ) -> [UInt8] {
        var response = request.response(subprotocol: subprotocol, extensions: extensions)
        response.headers.addAbsent(server)
        return HTTPResponseEncoder.head(response, framing: .none, keepAlive: true, date: date)
    }

    @Test(
        "the same bytes as the general path, with and without server headers, subprotocol and extensions",
        arguments: [
            (nil, nil), ("scores.v1", nil), (nil, "permessage-deflate; client_max_window_bits=15"),
            ("scores.v1", "permessage-deflate"),
        ] as [(String?, String?)])
    func sameBytes(subprotocol: String?, extensions: String?) throws {
        let request = try Self.request()
        for server in [HTTPHeaders(), Self.security] {
            let head = try #require(WebSocketUpgradeHead(serverHeaders: server))
            let prepared = head.encode(
                acceptingKey: request.key, subprotocol: subprotocol, extensions: extensions, date: Self.date)
            let expected = Self.general(request, server: server, subprotocol: subprotocol, extensions: extensions)
            #expect(prepared.map { String(decoding: $0, as: UTF8.self) } == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test("carries RFC 6455's example accept value for the request's key")
    func acceptValue() throws {
        let head = try #require(WebSocketUpgradeHead(serverHeaders: Self.security))
        let bytes = try #require(
            head.encode(
                acceptingKey: "dGhlIHNhbXBsZSBub25jZQ==", subprotocol: nil, extensions: nil, date: Self.date))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"))
        #expect(text.contains("\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(text.hasSuffix("\r\nDate: \(Self.date)\r\n\r\n"))
    }

    @Test(
        "is not prepared for server headers that would change what a 101 says",
        arguments: ["Connection", "upgrade", "Date", "Sec-WebSocket-Protocol", "sec-websocket-accept"])
    func refusesOwnFields(name: String) {
        #expect(WebSocketUpgradeHead(serverHeaders: [name: "x"]) == nil)
    }

    @Test("leaves a value with CR, LF or NUL to the general path, which sanitizes it")
    func controlBytes() throws {
        let head = try #require(WebSocketUpgradeHead(serverHeaders: HTTPHeaders()))
        for value in ["a\r\nInjected: 1", "a\nb", "a\u{0}b"] {
            #expect(head.encode(acceptingKey: "k", subprotocol: nil, extensions: value, date: Self.date) == nil)
            #expect(head.encode(acceptingKey: "k", subprotocol: value, extensions: nil, date: Self.date) == nil)
        }
    }

    @Test("accept(_:decide:) answers what negotiate(_:decide:) builds its 101 from")
    func acceptMatchesNegotiate() throws {
        let decide: (WebSocketUpgradeRequest) -> WebSocketUpgradeDecision = { _ in
            .accept(subprotocol: "chat", extensions: "x-test")
        }
        let head = upgradeHead(headers: [("Sec-WebSocket-Protocol", "chat")])
        guard
            case .upgrade(let request, let subprotocol, let extensions) = WebSocketHandshake.accept(
                head, decide: decide)
        else {
            Issue.record("not accepted")
            return
        }
        guard case .upgrade(_, let response, _) = WebSocketHandshake.negotiate(head, decide: decide) else {
            Issue.record("not negotiated")
            return
        }
        #expect(request.response(subprotocol: subprotocol, extensions: extensions) == response)
        guard case .reject(let refusal, _) = WebSocketHandshake.accept(head, decide: { _ in .refuse(reason: "no") })
        else {
            Issue.record("not refused")
            return
        }
        #expect(refusal.status == .forbidden)
    }
}

/// The one pass over a request's fields that validation reads (`UpgradeFields`), against the lookups it replaced.
@Suite("Upgrade fields in one pass")
struct UpgradeFieldsTests {
    @Test("finds each field whatever its case, the first of a repeated one, counts, and every list value in order")
    func sameAsLookups() {
        let headers = HTTPHeaders([
            ("hOsT", "a.example"), ("Host", "b.example"), ("SEC-WEBSOCKET-KEY", "k1"), ("sec-websocket-key", "k2"),
            ("Sec-Websocket-Version", "13"), ("sec-websocket-protocol", "chat, v2"), ("X-Other", "x"),
            ("Sec-WebSocket-Extensions", "permessage-deflate"), ("SEC-WEBSOCKET-PROTOCOL", "v3"),
            ("sec-websocket-extensions", "x-two"), ("ORIGIN", "http://o.example"),
            // Same lengths as the fields looked for, other names: never taken for them.
            ("Hoss", "no"), ("Origon", "no"), ("Sec-WebSocket-Kex", "no"), ("Sec-WebSocket-Versiom", "no"),
        ])
        let fields = UpgradeFields(headers)
        #expect(fields.host == headers["Host"])
        #expect(fields.key == headers.firstValue(for: "Sec-WebSocket-Key")?.value)
        #expect(fields.keyCount == 2)
        #expect(fields.version == "13")
        #expect(fields.versionCount == 1)
        #expect(fields.protocols == headers.values(for: "Sec-WebSocket-Protocol"))
        #expect(fields.protocols == ["chat, v2", "v3"])
        #expect(fields.extensions == ["permessage-deflate", "x-two"])
        #expect(fields.origin == "http://o.example")
    }

    @Test("an absent field is nil, counted zero, an empty list")
    func absent() {
        let fields = UpgradeFields(["Host": "h", "Sec-WebSocket-Kex": "k"])
        #expect(fields.key == nil && fields.keyCount == 0)
        #expect(fields.version == nil && fields.versionCount == 0)
        #expect(fields.protocols.isEmpty && fields.extensions.isEmpty && fields.origin == nil)
    }
}
