import Testing

@testable import Courtside

@Suite("Webhook addresses: the URL and the address policy")
struct WebhookAddressPolicyTests {
    private func bytes(_ text: String) throws -> [UInt8] {
        try #require(IPAddressRange.addressBytes(text))
    }

    @Test("loopback, private, link-local, shared, unspecified and multicast addresses are refused by default")
    func refusedByDefault() throws {
        let policy = WebhookAddressPolicy(allowsPrivate: false)
        for address in [
            "127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
            "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fc00::1", "fd12::1", "fe80::1",
            "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
        ] {
            #expect(policy.refusal(of: try bytes(address)) != nil, "\(address) was allowed")
        }
    }

    @Test("public unicast addresses are allowed, neighbours of the refused ranges included")
    func publicAllowed() throws {
        let policy = WebhookAddressPolicy(allowsPrivate: false)
        for address in ["8.8.8.8", "172.15.255.255", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2001:db8::1"] {
            #expect(policy.refusal(of: try bytes(address)) == nil, "\(address) was refused")
        }
    }

    @Test("--webhook-allow-private allows private and loopback, never unspecified or multicast")
    func allowPrivate() throws {
        let policy = WebhookAddressPolicy(allowsPrivate: true)
        #expect(policy.refusal(of: try bytes("127.0.0.1")) == nil)
        #expect(policy.refusal(of: try bytes("10.0.0.1")) == nil)
        #expect(policy.refusal(of: try bytes("::1")) == nil)
        #expect(policy.refusal(of: try bytes("0.0.0.0")) != nil)
        #expect(policy.refusal(of: try bytes("ff02::1")) != nil)
    }

    @Test("resolving checks the addresses it connects to: localhost is refused, then allowed with the switch")
    func resolution() throws {
        #expect(throws: WebhookDeliveryError.self) {
            try WebhookAddressPolicy(allowsPrivate: false).resolve(host: "127.0.0.1", port: 80)
        }
        #expect(throws: WebhookDeliveryError.self) {
            try WebhookAddressPolicy(allowsPrivate: false).resolve(host: "localhost", port: 80)
        }
        let address = try WebhookAddressPolicy(allowsPrivate: true).resolve(host: "127.0.0.1", port: 8080)
        #expect(address.text == "127.0.0.1")
        #expect(address.ipBytes == [127, 0, 0, 1])
    }

    @Test("URLs: http and https with host, port and target; other schemes, userinfo, fragments and bad ports refused")
    func urls() throws {
        let url = try WebhookURL("http://example.com:8080/hooks?x=1")
        #expect(url.host == "example.com" && url.port == 8080 && url.target == "/hooks?x=1")
        #expect(url.hostHeader == "example.com:8080")
        let v6 = try WebhookURL("http://[::1]/")
        #expect(v6.host == "::1" && v6.port == 80 && v6.hostHeader == "[::1]")
        #expect(try WebhookURL("http://example.com").target == "/")
        #expect(try WebhookURL("http://example.com?a").target == "/?a")
        let secure = try WebhookURL("https://example.com/in")
        #expect(secure.isTLS && secure.port == 443 && secure.hostHeader == "example.com" && secure.target == "/in")
        #expect(try WebhookURL("https://example.com:8443/").hostHeader == "example.com:8443")
        #expect(try WebhookURL("http://example.com:443/").hostHeader == "example.com:443")
        #expect(try !WebhookURL("http://example.com/").isTLS)
        #expect(throws: WebhookRequestError.self) { try WebhookURL("ftp://example.com/") }
        #expect(throws: WebhookRequestError.self) { try WebhookURL("http://user:pw@example.com/") }
        #expect(throws: WebhookRequestError.self) { try WebhookURL("http://example.com/#x") }
        #expect(throws: WebhookRequestError.self) { try WebhookURL("http://example.com:0/") }
        #expect(throws: WebhookRequestError.self) { try WebhookURL("http://example.com:99999/") }
        #expect(throws: WebhookRequestError.self) { try WebhookURL("http:///x") }
        #expect(throws: WebhookRequestError.self) { try WebhookURL("http://exa mple.com/") }
        #expect(throws: WebhookRequestError.self) { try WebhookURL("http://x/" + String(repeating: "a", count: 2_048)) }
    }

    @Test("a status line is read from the first bytes; anything else is a bad response")
    func statusLines() throws {
        #expect(try WebhookHTTPClient.status(in: Array("HTTP/1.1 204 No Content\r\n".utf8)) == 204)
        #expect(try WebhookHTTPClient.status(in: Array("HTTP/1.1 302 Found\r\nLocation: x".utf8)) == 302)
        #expect(try WebhookHTTPClient.status(in: Array("HTTP/1.1 20".utf8)) == nil)
        #expect(throws: WebhookDeliveryError.self) { try WebhookHTTPClient.status(in: Array("SSH-2.0\r\n".utf8)) }
    }
}
