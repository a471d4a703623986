import CourtsideHTTP
import Testing

@testable import CourtsideWebSocket

/// A valid upgrade request head; tests change one field at a time.
func upgradeHead(
    method: HTTPMethod = .GET, version: HTTPVersion = .http1_1, headers extra: [(String, String)] = [],
    removing: [String] = []
) -> HTTPRequestHead {
    var headers = HTTPHeaders([
        ("Host", "server.example.com"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
        ("Origin", "http://example.com"),
    ])
    for name in removing { headers.remove(name: name) }
    for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
    return HTTPRequestHead(
        method: method, target: "/chat", path: "/chat", query: nil, version: version, headers: headers,
        keepAlive: true)
}

@Suite("Opening handshake")
struct HandshakeTests {
    @Test("computes RFC 6455's example Sec-WebSocket-Accept")
    func acceptKey() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("accepts RFC 6455's example request and answers 101 with the accept value")
    func acceptsExample() throws {
        let request = try WebSocketHandshake.validate(
            upgradeHead(headers: [("Sec-WebSocket-Protocol", "chat, superchat")])
        ).get()
        #expect(request.subprotocols == ["chat", "superchat"])
        #expect(request.origin == "http://example.com")
        #expect(request.key == "dGhlIHNhbXBsZSBub25jZQ==")
        let response = request.response(subprotocol: "chat")
        #expect(response.status == .switchingProtocols)
        #expect(response.headers["Upgrade"] == "websocket")
        #expect(response.headers["Connection"] == "Upgrade")
        #expect(response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(response.headers["Sec-WebSocket-Protocol"] == "chat")
        #expect(response.headers["Sec-WebSocket-Extensions"] == nil)
        #expect(response.body.isEmpty)
    }

    @Test("accepts Upgrade and Connection tokens in any case, inside comma-separated lists")
    func tokenLists() {
        let head = upgradeHead(headers: [("Upgrade", "h2c, WebSocket"), ("Connection", "keep-alive, UPGRADE")])
        #expect((try? WebSocketHandshake.validate(head).get()) != nil)
        #expect(WebSocketHandshake.isUpgradeRequest(head))
        #expect(!WebSocketHandshake.isUpgradeRequest(upgradeHead(removing: ["Upgrade"])))
    }

    @Test(
        "refuses each malformed handshake with its status",
        arguments: [
            (upgradeHead(method: .POST), WebSocketHandshakeError.methodNotGET(.POST), 400),
            (upgradeHead(version: .http1_0), .httpVersionTooOld(.http1_0), 400),
            (upgradeHead(removing: ["Host"]), .missingHost, 400),
            (upgradeHead(removing: ["Upgrade"]), .missingUpgradeWebSocket, 400),
            (upgradeHead(headers: [("Upgrade", "websocket2")]), .missingUpgradeWebSocket, 400),
            (upgradeHead(removing: ["Connection"]), .missingConnectionUpgrade, 400),
            (upgradeHead(headers: [("Connection", "keep-alive")]), .missingConnectionUpgrade, 400),
            (upgradeHead(removing: ["Sec-WebSocket-Version"]), .unsupportedVersion(nil), 426),
            (upgradeHead(headers: [("Sec-WebSocket-Version", "8")]), .unsupportedVersion("8"), 426),
            (upgradeHead(removing: ["Sec-WebSocket-Key"]), .missingKey, 400),
            (upgradeHead(headers: [("Sec-WebSocket-Key", "c2hvcnQ=")]), .invalidKey("c2hvcnQ="), 400),
            (upgradeHead(headers: [("Sec-WebSocket-Key", "not base64!")]), .invalidKey("not base64!"), 400),
            (
                upgradeHead(headers: [("Sec-WebSocket-Key", "AAAAAAAAAAAAAAAAAAAAAAAA")]),
                .invalidKey("AAAAAAAAAAAAAAAAAAAAAAAA"), 400
            ),
            (
                upgradeHead(headers: [("Sec-WebSocket-Protocol", "chat, a b")]), .invalidSubprotocolList("chat, a b"),
                400
            ),
            (
                upgradeHead(headers: [("Sec-WebSocket-Extensions", "permessage-deflate; =1")]),
                .invalidExtensionList("permessage-deflate; =1"), 400
            ),
        ])
    func refusals(head: HTTPRequestHead, error: WebSocketHandshakeError, status: Int) {
        guard case .failure(let actual) = WebSocketHandshake.validate(head) else {
            Issue.record("accepted a malformed handshake")
            return
        }
        #expect(actual == error)
        #expect(actual.response.status.code == status)
        #expect(actual.response.headers["Connection"] == (status == 426 ? "Upgrade, close" : nil))
    }

    @Test("refuses a second Sec-WebSocket-Key header")
    func duplicateKey() {
        var head = upgradeHead()
        head.headers.add(name: "Sec-WebSocket-Key", value: "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(WebSocketHandshake.validate(head) == .failure(.missingKey))
    }

    @Test("names version 13 in a 426 answer")
    func upgradeRequiredNamesVersion() {
        let response = WebSocketHandshakeError.unsupportedVersion("7").response
        #expect(response.status == .upgradeRequired)
        #expect(response.headers["Sec-WebSocket-Version"] == "13")
        #expect(response.headers["Upgrade"] == "websocket")
    }

    @Test("maps an application refusal to 403 with the reason")
    func refusal() {
        let outcome = WebSocketHandshake.negotiate(upgradeHead()) { _ in .refuse(reason: "origin not allowed") }
        guard case .reject(let response, let error) = outcome else {
            Issue.record("not refused")
            return
        }
        #expect(error == .refused(reason: "origin not allowed"))
        #expect(response.status == .forbidden)
        #expect(String(decoding: response.body, as: UTF8.self).contains("origin not allowed"))
    }

    @Test("upgrades with the subprotocol the application chose, and refuses one the client did not offer")
    func subprotocolChoice() {
        let head = upgradeHead(headers: [("Sec-WebSocket-Protocol", "v1.courtside, v2.courtside")])
        guard
            case .upgrade(let request, let response, let chosen) = WebSocketHandshake.negotiate(
                head,
                decide: {
                    .accept(subprotocol: $0.subprotocols.last)
                })
        else {
            Issue.record("not upgraded")
            return
        }
        #expect(request.subprotocols == ["v1.courtside", "v2.courtside"])
        #expect(chosen == "v2.courtside")
        #expect(response.headers["Sec-WebSocket-Protocol"] == "v2.courtside")
        guard
            case .reject(let refused, _) = WebSocketHandshake.negotiate(
                head, decide: { _ in .accept(subprotocol: "v3") })
        else {
            Issue.record("accepted a subprotocol that was not offered")
            return
        }
        #expect(refused.status == .internalServerError)
    }

    @Test("passes a malformed handshake's error through negotiate without asking the application")
    func negotiateValidatesFirst() {
        var asked = false
        let outcome = WebSocketHandshake.negotiate(upgradeHead(method: .PUT)) { _ in
            asked = true
            return .accept()
        }
        guard case .reject(let response, .methodNotGET(.PUT)) = outcome else {
            Issue.record("not rejected")
            return
        }
        #expect(!asked)
        #expect(response.status == .badRequest)
    }

    @Test("adds the extension response value to the 101")
    func extensionResponse() {
        let head = upgradeHead(headers: [("Sec-WebSocket-Extensions", "permessage-deflate")])
        guard
            case .upgrade(_, let response, _) = WebSocketHandshake.negotiate(
                head,
                decide: {
                    .accept(extensions: $0.extensionOffers.first?.headerValue)
                })
        else {
            Issue.record("not upgraded")
            return
        }
        #expect(response.headers["Sec-WebSocket-Extensions"] == "permessage-deflate")
    }
}
