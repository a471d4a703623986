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

    /// `SSL_CTX_get_min_proto_version` is a macro over `SSL_CTX_ctrl`; calling the control directly avoids a
    /// shim wrapper that only tests would use.
    func minimumProtocolVersion(of context: TLSContext) -> Int32 {
        Int32(SSL_CTX_ctrl(context.pointer, SSL_CTRL_GET_MIN_PROTO_VERSION, 0, nil))
    }
}
