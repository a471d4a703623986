import COpenSSL
import CourtsideTestSupport
import Testing

@testable import CourtsideTLS

@Suite("Server context policy", .ownThread)
struct TLSContextPolicyTests {
    @Test("the server context sets TLS 1.2 minimum, the hardening options and released buffers")
    func policy() throws {
        let files = try TestCertificates.shared()
        let context = try TLSContext(
            configuration: TLSConfiguration(certificateChainPath: files.certificate, privateKeyPath: files.key))
        #expect(minimumProtocolVersion(of: context) == TLSProtocolVersion.tls1_2.rawValue)
        let options = SSL_CTX_get_options(context.pointer)
        for option in [
            cossl_op_no_compression(), cossl_op_no_renegotiation(), cossl_op_ignore_unexpected_eof(),
            cossl_op_cipher_server_preference(),
        ] {
            #expect(options & option == option)
        }
        #expect(cossl_ctx_set_mode(context.pointer, 0) & Int(SSL_MODE_RELEASE_BUFFERS) != 0)
    }

    @Test("TLS 1.2 suites are ECDHE with AEAD only; TLS 1.3 keeps its own (all AEAD)")
    func cipherSuites() throws {
        let files = try TestCertificates.shared()
        let context = try TLSContext(
            configuration: TLSConfiguration(certificateChainPath: files.certificate, privateKeyPath: files.key))
        let stack = try #require(SSL_CTX_get_ciphers(context.pointer))
        var tls12: [String] = []
        for index in 0..<OPENSSL_sk_num(stack) {
            let cipher = OpaquePointer(try #require(OPENSSL_sk_value(stack, index)))
            let name = String(cString: SSL_CIPHER_get_name(cipher))
            #expect(SSL_CIPHER_is_aead(cipher) == 1, "\(name) is not AEAD")
            #expect(!name.contains("CBC") && !name.hasSuffix("-SHA"), "\(name)")
            if String(cString: SSL_CIPHER_get_version(cipher)) != "TLSv1.3" {
                tls12.append(name)
                #expect(SSL_CIPHER_get_kx_nid(cipher) == NID_kx_ecdhe, "\(name) has no forward secrecy")
            }
        }
        #expect(tls12.count == 6)
        #expect(tls12.joined(separator: ":") == TLSContext.serverTLS12CipherList)
    }

    @Test("a TLS 1.2 client offering only CBC or static-RSA suites is refused; one offering ECDHE-GCM is served")
    func cbcClientRefused() throws {
        let files = try TestCertificates.shared()
        let server = try TLSContext(
            configuration: TLSConfiguration(certificateChainPath: files.certificate, privateKeyPath: files.key))
        for suites in [
            "ECDHE-RSA-AES128-SHA:ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA384:ECDHE-RSA-AES256-SHA384",
            "AES128-GCM-SHA256:AES256-SHA:DHE-RSA-AES128-GCM-SHA256",
        ] {
            let client = try TLSContext.client(verify: false, maximumVersion: .tls1_2, cipherList: suites)
            let pair = try TLSPair(client: client, server: server)
            guard case .failed = pair.handshake().server else {
                Issue.record("the server agreed to \(pair.server.cipherSuiteName ?? "?") from \(suites)")
                continue
            }
        }
        let modern = try TLSContext.client(
            verify: false, maximumVersion: .tls1_2,
            cipherList: "ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES256-GCM-SHA384")
        let pair = try TLSPair(client: modern, server: server)
        #expect(pair.handshake().server == .complete)
        #expect(pair.server.cipherSuiteName?.hasSuffix("-AES256-GCM-SHA384") == true)
    }

    /// `SSL_CTX_get_min_proto_version` is a macro over `SSL_CTX_ctrl`; calling the control directly avoids a
    /// shim wrapper that only tests would use.
    func minimumProtocolVersion(of context: TLSContext) -> Int32 {
        Int32(SSL_CTX_ctrl(context.pointer, SSL_CTRL_GET_MIN_PROTO_VERSION, 0, nil))
    }
}
