import CourtsideHTTP
import Testing

@testable import Courtside

@Suite("Client address behind trusted proxies")
struct ClientAddressTests {
    let proxies = ["127.0.0.1", "10.0.0.0/8"].compactMap(IPAddressRange.init)

    func resolve(peer: String, _ forwarded: [String]) -> ClientAddress {
        var headers = HTTPHeaders()
        for value in forwarded { headers.add(name: "X-Forwarded-For", value: value) }
        return ClientAddress.resolve(peer: peer, headers: headers, trustedProxies: proxies)
    }

    @Test("an untrusted peer is the client, whatever X-Forwarded-For says")
    func untrustedPeerIgnoresHeader() {
        let client = resolve(peer: "203.0.113.7", ["198.51.100.1"])
        #expect(client.address == "203.0.113.7")
        #expect(!client.isForwarded)
    }

    @Test("with no trusted proxies configured the header is never read")
    func noTrustedProxies() {
        var headers = HTTPHeaders()
        headers.add(name: "X-Forwarded-For", value: "198.51.100.1")
        let client = ClientAddress.resolve(peer: "127.0.0.1", headers: headers, trustedProxies: [])
        #expect(client.address == "127.0.0.1")
    }

    @Test("a trusted proxy's X-Forwarded-For names the client")
    func trustedProxyForwards() {
        let client = resolve(peer: "127.0.0.1", ["127.0.0.2"])
        #expect(client == ClientAddress(address: "127.0.0.2", peer: "127.0.0.1"))
        #expect(client.isForwarded)
    }

    @Test("the rightmost untrusted hop wins: entries a client forged on the left are ignored")
    func rightmostUntrustedHop() {
        #expect(resolve(peer: "127.0.0.1", ["6.6.6.6, 198.51.100.4, 10.1.1.1"]).address == "198.51.100.4")
        // Several header lines are one list, in order.
        #expect(resolve(peer: "127.0.0.1", ["6.6.6.6", "198.51.100.4", "10.1.1.1"]).address == "198.51.100.4")
    }

    @Test("a chain of trusted proxies only: the leftmost hop is the client")
    func allTrusted() {
        #expect(resolve(peer: "127.0.0.1", ["10.0.0.9, 10.0.0.8"]).address == "10.0.0.9")
    }

    @Test("no header, an empty one, or garbage leaves the last trusted hop")
    func garbage() {
        #expect(resolve(peer: "127.0.0.1", []).address == "127.0.0.1")
        #expect(resolve(peer: "127.0.0.1", [""]).address == "127.0.0.1")
        #expect(resolve(peer: "127.0.0.1", ["unknown"]).address == "127.0.0.1")
        #expect(resolve(peer: "127.0.0.1", ["198.51.100.4, unknown, 10.0.0.2"]).address == "10.0.0.2")
        #expect(resolve(peer: "127.0.0.1", [" 2001:db8::1 "]).address == "2001:db8::1")
    }
}
