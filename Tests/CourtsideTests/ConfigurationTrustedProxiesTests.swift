import Testing

@testable import Courtside

@Suite("--trusted-proxies parsing")
struct ConfigurationTrustedProxiesTests {
    func configuration(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ServerConfiguration {
        guard
            case .success(.serve(let options)) = CommandLineParser.parse(
                arguments: ["serve"] + arguments, environment: environment)
        else {
            throw ParseFailed()
        }
        return options.configuration
    }

    struct ParseFailed: Error {}

    @Test("the default trusts no proxy")
    func defaultIsNone() throws {
        #expect(try configuration([]).trustedProxies.isEmpty)
    }

    @Test("the flag takes comma-separated addresses and CIDRs, spaces and empty entries ignored")
    func flagList() throws {
        let parsed = try configuration(["--trusted-proxies", "127.0.0.1, 10.0.0.0/8,,::1"]).trustedProxies
        #expect(parsed.map(\.description) == ["127.0.0.1/32", "10.0.0.0/8", "::1/128"])
    }

    @Test("COURTSIDE_TRUSTED_PROXIES sets it and the flag wins over it")
    func environment() throws {
        let fromEnvironment = try configuration([], ["COURTSIDE_TRUSTED_PROXIES": "192.168.0.0/16"])
        #expect(fromEnvironment.trustedProxies.map(\.description) == ["192.168.0.0/16"])
        let both = try configuration(
            ["--trusted-proxies=127.0.0.1"], ["COURTSIDE_TRUSTED_PROXIES": "192.168.0.0/16"])
        #expect(both.trustedProxies.map(\.description) == ["127.0.0.1/32"])
    }

    @Test("a bad entry exits 2 naming the flag and the entry")
    func invalidEntry() {
        let result = CommandLineParser.parse(
            arguments: ["serve", "--trusted-proxies", "127.0.0.1,proxy.local"], environment: [:])
        guard case .failure(let error) = result else {
            Issue.record("parsed a host name as a proxy address")
            return
        }
        #expect("\(error)".contains("--trusted-proxies"))
        #expect("\(error)".contains("proxy.local"))
    }
}
