import Courtside
import CourtsideTestSupport
import Testing

/// The per-address connection cap and the logs over real sockets, with and without `--trusted-proxies`: the test
/// client plays a proxy on 127.0.0.1 that forwards different clients.
@Suite("Trusted proxies over loopback", .serialized, .ownThread)
struct TrustedProxyTests {
    func forwarded(_ client: String) -> [String: String] { ["X-Forwarded-For": client] }

    @Test("behind a trusted proxy each forwarded client has its own connection cap, and the log names it")
    func capPerForwardedClient() throws {
        let app = try TestApp(configure: {
            $0.maxConnectionsPerAddress = 1
            $0.trustedProxies = [IPAddressRange("127.0.0.1")!]
        })
        let first = try WebSocketClient(port: app.port, path: "/ws/games", headers: forwarded("203.0.113.1"))
        let second = try WebSocketClient(port: app.port, path: "/ws/games", headers: forwarded("203.0.113.2"))
        _ = try first.readJSON()
        _ = try second.readJSON()
        // A client that puts a fake address on the left is still counted under the one the proxy appended.
        let again = try WebSocketClient.upgrade(
            app.connect(), path: "/ws/games", headers: forwarded("198.51.100.7, 203.0.113.1"))
        #expect(again.status == 429)
        #expect(again.text.contains("203.0.113.1"))
        let admitted = app.logLines.all.filter { $0.contains("long-lived connection") }
        #expect(admitted.count == 2)
        #expect(admitted.allSatisfy { $0.contains(" peer=127.0.0.1") })
        #expect(admitted.contains { $0.contains(" client=203.0.113.1 ") })
        #expect(admitted.contains { $0.contains(" client=203.0.113.2 ") })
    }

    @Test("without trusted proxies X-Forwarded-For is ignored: one peer is one address")
    func headerIgnoredByDefault() throws {
        let app = try TestApp(configure: { $0.maxConnectionsPerAddress = 1 })
        let first = try WebSocketClient(port: app.port, path: "/ws/games", headers: forwarded("203.0.113.1"))
        _ = try first.readJSON()
        let second = try WebSocketClient.upgrade(app.connect(), path: "/ws/games", headers: forwarded("203.0.113.2"))
        // Refused by the network core's per-peer cap (503) before the router could count a forwarded address.
        #expect(second.status == 503)
        let admitted = app.logLines.all.filter { $0.contains("long-lived connection") }
        #expect(admitted.count == 1)
        #expect(admitted.allSatisfy { $0.contains(" client=127.0.0.1 ") && $0.contains(" peer=127.0.0.1") })
    }
}
