import Testing

@testable import Courtside

@Suite("IP address ranges (--trusted-proxies entries)")
struct IPAddressRangeTests {
    @Test("a single IPv4 address is a /32 that holds only itself")
    func singleIPv4() throws {
        let range = try #require(IPAddressRange("127.0.0.1"))
        #expect(range.prefixLength == 32)
        #expect(range.contains("127.0.0.1"))
        #expect(!range.contains("127.0.0.2"))
        #expect(range.description == "127.0.0.1/32")
    }

    @Test("a CIDR range holds the addresses under its prefix, with host bits cleared")
    func ipv4CIDR() throws {
        let range = try #require(IPAddressRange("10.1.2.3/8"))
        #expect(range.description == "10.0.0.0/8")
        #expect(range.contains("10.255.0.1"))
        #expect(!range.contains("11.0.0.1"))
        let odd = try #require(IPAddressRange("192.168.1.128/25"))
        #expect(odd.contains("192.168.1.200"))
        #expect(!odd.contains("192.168.1.127"))
        #expect(try #require(IPAddressRange("0.0.0.0/0")).contains("203.0.113.9"))
    }

    @Test("IPv6 ranges, and IPv4-mapped IPv6 addresses count as their IPv4 address")
    func ipv6() throws {
        let range = try #require(IPAddressRange("fd00::/8"))
        #expect(range.contains("fd12:3456::1"))
        #expect(!range.contains("fe80::1"))
        #expect(!range.contains("10.0.0.1"))
        #expect(try #require(IPAddressRange("::1")).contains("::1"))
        #expect(try #require(IPAddressRange("127.0.0.0/8")).contains("::ffff:127.0.0.5"))
    }

    @Test("names, bad prefixes and garbage are refused")
    func invalid() {
        for text in ["localhost", "", "10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0.0/+8", "10.0.0.0/-1", "1.2.3"] {
            #expect(IPAddressRange(text) == nil, "\(text)")
        }
        #expect(!IPAddressRange("10.0.0.0/8")!.contains("not an address"))
    }
}
