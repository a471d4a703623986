import Testing

@testable import CourtsideLoad

/// `courtside-load fanout`'s URLs and TLS flags: `wss://` subscribers and publisher, and how they trust the server.
@Suite struct FanoutOptionsTests {
    private func parse(_ arguments: [String]) -> Result<FanoutOptions, LoadOptionsError> {
        FanoutOptions.parse(arguments)
    }

    @Test func plainURLsNeedNoTLS() throws {
        let options = try parse(["--sub-url", "ws://127.0.0.1:9000/sub", "--pub-url", "ws://127.0.0.1:9000/pub"]).get()
        #expect(!options.subscribeTLS && !options.publishTLS)
        #expect(options.subscribeTarget.port == 9000)
        #expect(options.tlsTrust == .system)
        #expect(try options.tlsContext() == nil)
    }

    @Test func wssURLsSpeakTLSWithTheChosenTrust() throws {
        let options = try parse([
            "--sub-url", "wss://127.0.0.1:9443/sub", "--pub-url", "wss://localhost/pub", "--tls-insecure-skip-verify",
        ]).get()
        #expect(options.subscribeTLS && options.publishTLS)
        #expect(options.subscribeTarget.port == 9443)
        #expect(options.subscribeTarget.path == "/sub")
        // RFC 6455 §3: wss:// without a port is 443.
        #expect(options.publishTarget.port == 443)
        #expect(options.tlsTrust == .insecureSkipVerify)
        #expect(try options.tlsContext() != nil)

        let withCA = try parse([
            "--sub-url", "wss://127.0.0.1:9443/sub", "--pub-url", "ws://127.0.0.1:9000/pub", "--tls-ca", "/tmp/ca.pem",
        ]).get()
        #expect(withCA.subscribeTLS && !withCA.publishTLS)
        #expect(withCA.tlsTrust == .caFile("/tmp/ca.pem"))
    }

    @Test func trustFlagsAreRefusedWithoutWSSOrTogether() {
        let plain = parse([
            "--sub-url", "ws://127.0.0.1:9000/sub", "--pub-url", "ws://127.0.0.1:9000/pub",
            "--tls-insecure-skip-verify",
        ])
        #expect(throws: LoadOptionsError.self) { try plain.get() }
        let both = parse([
            "--sub-url", "wss://127.0.0.1:9443/sub", "--pub-url", "wss://127.0.0.1:9443/pub", "--tls-ca", "/tmp/ca.pem",
            "--tls-insecure-skip-verify",
        ])
        #expect(throws: LoadOptionsError.self) { try both.get() }
        let missingFile = parse([
            "--sub-url", "wss://127.0.0.1:1/sub", "--pub-url", "wss://127.0.0.1:1/pub", "--tls-ca",
        ])
        #expect(throws: LoadOptionsError.missingValue("--tls-ca")) { try missingFile.get() }
    }

    @Test func otherModesStillRefuseWSS() {
        #expect(throws: LoadOptionsError.self) { try LoadTarget.parse("wss://127.0.0.1:9443/").get() }
        #expect(throws: LoadOptionsError.self) { try LoadTarget.parseAllowingTLS("wss://10.0.0.1:9443/").get() }
    }
}
