import CourtsideTLS
import CourtsideTestSupport
import Testing

@Suite("Handshake over memory BIOs", .ownThread)
struct TLSHandshakeTests {
    let files: TestCertificates
    let server: TLSContext

    init() throws {
        files = try TestCertificates.shared()
        server = try TLSContext(
            configuration: TLSConfiguration(certificateChainPath: files.certificate, privateKeyPath: files.key))
    }

    @Test("client and server complete a handshake with TLS 1.3 and ALPN http/1.1")
    func handshakeCompletes() throws {
        let pair = try TLSPair(client: TLSContext.client(verify: false), server: server)
        #expect(pair.server.handshake() == .needsMoreData)
        #expect(!pair.client.isHandshakeComplete)
        let results = pair.handshake()
        #expect(results.client == .complete)
        #expect(results.server == .complete)
        #expect(pair.server.negotiatedProtocolVersion == .tls1_3)
        #expect(pair.client.negotiatedProtocolVersion == .tls1_3)
        #expect(pair.server.negotiatedApplicationProtocol == "http/1.1")
        #expect(pair.client.negotiatedApplicationProtocol == "http/1.1")
        #expect(pair.server.cipherSuiteName?.hasPrefix("TLS_") == true)
    }

    @Test("a TLS 1.2 client is accepted")
    func tls12Accepted() throws {
        let client = try TLSContext.client(verify: false, maximumVersion: .tls1_2)
        let pair = try TLSPair(client: client, server: server)
        let results = pair.handshake()
        #expect(results.server == .complete)
        #expect(pair.server.negotiatedProtocolVersion == .tls1_2)
        #expect(pair.server.negotiatedApplicationProtocol == "http/1.1")
    }

    @Test("a client limited to TLS 1.1 is refused with a protocol version error")
    func tls11Refused() throws {
        // SECLEVEL=0 so OpenSSL agrees to build a TLS 1.1 ClientHello at all (its default level forbids it).
        let client = try TLSContext.client(
            verify: false, minimumVersion: .tls1_1, maximumVersion: .tls1_1, cipherList: "DEFAULT:@SECLEVEL=0")
        let pair = try TLSPair(client: client, server: server)
        let results = pair.handshake()
        guard case .failed(.handshakeFailed(let serverReason)) = results.server else {
            Issue.record("server should refuse TLS 1.1, got \(results.server)")
            return
        }
        #expect(serverReason.contains("unsupported protocol"))
        guard case .failed(.handshakeFailed(let clientReason)) = results.client else {
            Issue.record("client should see the alert, got \(results.client)")
            return
        }
        #expect(clientReason.contains("protocol version"))
        #expect(pair.server.negotiatedProtocolVersion == nil)
    }

    @Test("a client offering no ALPN is served without it")
    func noALPN() throws {
        let pair = try TLSPair(client: TLSContext.client(verify: false, applicationProtocols: []), server: server)
        #expect(pair.handshake().server == .complete)
        #expect(pair.server.negotiatedApplicationProtocol == nil)
    }

    @Test("http/1.1 is picked from a longer ALPN list")
    func alpnFromList() throws {
        let client = try TLSContext.client(verify: false, applicationProtocols: ["h2", "http/1.1", "spdy/3"])
        let pair = try TLSPair(client: client, server: server)
        #expect(pair.handshake().server == .complete)
        #expect(pair.client.negotiatedApplicationProtocol == "http/1.1")
    }

    @Test("a client offering ALPN without http/1.1 gets no_application_protocol (RFC 7301 §3.2)")
    func alpnWithoutHTTP11() throws {
        let pair = try TLSPair(client: TLSContext.client(verify: false, applicationProtocols: ["h2"]), server: server)
        let results = pair.handshake()
        guard case .failed(.handshakeFailed(let reason)) = results.client else {
            Issue.record("expected a failed handshake, got \(results.client)")
            return
        }
        #expect(reason.contains("no application protocol"))
        #expect(results.server != .complete)
    }

    @Test(
        "a verifying client accepts the certificate for its name and IP address", arguments: ["localhost", "127.0.0.1"])
    func verifiedHandshake(serverName: String) throws {
        let client = try TLSContext.client(verify: true, caFile: files.certificate)
        let pair = try TLSPair(client: client, server: server, serverName: serverName)
        let results = pair.handshake()
        #expect(results.client == .complete)
        #expect(results.server == .complete)
    }

    @Test("a verifying client refuses a certificate for another name")
    func hostnameMismatch() throws {
        let client = try TLSContext.client(verify: true, caFile: files.certificate)
        let pair = try TLSPair(client: client, server: server, serverName: "example.com")
        guard case .failed(.handshakeFailed(let reason)) = pair.handshake().client else {
            Issue.record("expected a failed handshake")
            return
        }
        #expect(reason.contains("hostname mismatch"))
    }

    @Test("a verifying client refuses a certificate it does not trust")
    func untrustedCertificate() throws {
        // Trust a different self-signed certificate with the same name.
        let otherCertificate = files.directory + "/other-cert.pem"
        try TestCertificates.runOpenSSL([
            "req", "-x509", "-key", files.otherECKey, "-days", "1", "-subj", "/CN=localhost", "-out", otherCertificate,
        ])
        let client = try TLSContext.client(verify: true, caFile: otherCertificate)
        let pair = try TLSPair(client: client, server: server, serverName: "localhost")
        guard case .failed(.handshakeFailed(let reason)) = pair.handshake().client else {
            Issue.record("expected a failed handshake")
            return
        }
        #expect(reason.contains("certificate verif"))
    }

    static let garbage: [String: [UInt8]] = [
        "plain HTTP": Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
        "handshake record with a bad body": [0x16, 0x03, 0x01, 0x00, 0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        "no record header": [UInt8](repeating: 0x42, count: 300),
    ]

    @Test("garbage instead of a ClientHello fails the handshake with an error", arguments: garbage.keys.sorted())
    func garbageFails(name: String) throws {
        let bytes = try #require(Self.garbage[name])
        let connection = try TLSConnection(context: server)
        connection.receive(ciphertext: bytes)
        guard case .failed(.handshakeFailed(let reason)) = connection.handshake() else {
            Issue.record("expected a failed handshake")
            return
        }
        #expect(!reason.isEmpty)
        // Failure is sticky, and writes are refused.
        #expect(connection.handshake() == .failed(.handshakeFailed(openSSL: reason)))
        #expect(throws: TLSError.connectionClosed) { try connection.writePlaintext([1, 2, 3]) }
    }

    @Test("the handshake completes the same when every flight arrives byte by byte")
    func dripFedHandshake() throws {
        let pair = try TLSPair(client: TLSContext.client(verify: false), server: server)
        var clientResult = pair.client.handshake()
        var serverResult = pair.server.handshake()
        for _ in 0..<10 {
            let toServer = pair.client.takeCiphertext()
            for byte in toServer {
                pair.server.receive(ciphertext: [byte])
                serverResult = pair.server.handshake()
            }
            let toClient = pair.server.takeCiphertext()
            for byte in toClient {
                pair.client.receive(ciphertext: [byte])
                clientResult = pair.client.handshake()
            }
            if toServer.isEmpty && toClient.isEmpty { break }
        }
        #expect(clientResult == .complete)
        #expect(serverResult == .complete)
    }

    @Test("the transport ending during the handshake fails it")
    func endOfStreamDuringHandshake() throws {
        let pair = try TLSPair(client: TLSContext.client(verify: false), server: server)
        _ = pair.client.handshake()
        pair.exchange()
        #expect(pair.server.handshake() == .needsMoreData)
        #expect(pair.server.receiveEndOfStream() == .failed(.unexpectedEndOfStream))
        #expect(pair.server.handshake() == .failed(.unexpectedEndOfStream))
    }
}
