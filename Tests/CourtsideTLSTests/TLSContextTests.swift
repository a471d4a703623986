import CourtsideTLS
import CourtsideTestSupport
import Foundation
import Testing

@Suite("Server context start-up errors name the file and the problem", .ownThread)
struct TLSContextTests {
    let files: TestCertificates

    init() throws {
        files = try TestCertificates.shared()
    }

    /// Builds a server context, returning the error it threw (nil on success).
    func startUpError(certificate: String, key: String) -> TLSError? {
        do {
            _ = try TLSContext(configuration: TLSConfiguration(certificateChainPath: certificate, privateKeyPath: key))
            return nil
        } catch {
            return error
        }
    }

    @Test("a valid certificate and key make a server context")
    func validFiles() throws {
        let context = try TLSContext(
            configuration: TLSConfiguration(certificateChainPath: files.certificate, privateKeyPath: files.key))
        #expect(context.role == .server)
    }

    @Test("a missing certificate file is reported as missing, with its path")
    func missingCertificate() {
        let path = files.directory + "/no-such-cert.pem"
        let error = startUpError(certificate: path, key: files.key)
        #expect(error == .fileNotFound(path: path, role: .certificateChain))
        #expect(error?.description == "TLS certificate chain file '\(path)': no such file")
    }

    @Test("a missing key file is reported as missing, with its path")
    func missingKey() {
        let path = files.directory + "/missing-dir/key.pem"
        let error = startUpError(certificate: files.certificate, key: path)
        #expect(error == .fileNotFound(path: path, role: .privateKey))
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("private key") == true)
    }

    @Test("a directory given as the certificate path is unreadable")
    func directoryAsCertificate() {
        let error = startUpError(certificate: files.directory, key: files.key)
        #expect(error == .fileUnreadable(path: files.directory, role: .certificateChain, reason: "is a directory"))
        #expect(error?.description.contains("cannot be read (is a directory)") == true)
    }

    // Root ignores file permissions (the CI container runs as root), so the chmod case only runs unprivileged;
    // the directory case above covers the same error path as root.
    @Test("a key file without read permission is unreadable", .enabled(if: geteuid() != 0))
    func keyWithoutPermission() throws {
        let path = files.directory + "/unreadable-key-\(UUID().uuidString.prefix(8)).pem"
        try FileManager.default.copyItem(atPath: files.key, toPath: path)
        #expect(chmod(path, 0) == 0)
        let error = startUpError(certificate: files.certificate, key: path)
        guard case .fileUnreadable(path, .privateKey, let reason)? = error else {
            Issue.record("expected fileUnreadable, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("Permission denied"))
    }

    @Test("a certificate file that is not PEM is refused with OpenSSL's reason")
    func certificateNotPEM() {
        let error = startUpError(certificate: files.garbage, key: files.key)
        guard case .invalidCertificate(files.garbage, .certificateChain, let openSSL)? = error else {
            Issue.record("expected invalidCertificate, got \(String(describing: error))")
            return
        }
        #expect(openSSL.contains("no start line"))
        #expect(error?.description.contains("'\(files.garbage)': not a PEM certificate") == true)
    }

    @Test("a key given as the certificate (swapped flags) is not a PEM certificate")
    func swappedFiles() {
        let error = startUpError(certificate: files.key, key: files.certificate)
        guard case .invalidCertificate(files.key, .certificateChain, _)? = error else {
            Issue.record("expected invalidCertificate, got \(String(describing: error))")
            return
        }
    }

    @Test("a key file that is not PEM is refused")
    func keyNotPEM() {
        let error = startUpError(certificate: files.certificate, key: files.garbage)
        guard case .invalidPrivateKey(files.garbage, let openSSL)? = error else {
            Issue.record("expected invalidPrivateKey, got \(String(describing: error))")
            return
        }
        #expect(!openSSL.isEmpty)
        #expect(error?.description.contains("'\(files.garbage)': not an unencrypted PEM private key") == true)
    }

    @Test("an encrypted key is refused without prompting for a passphrase")
    func encryptedKey() {
        let error = startUpError(certificate: files.certificate, key: files.encryptedKey)
        guard case .invalidPrivateKey(files.encryptedKey, _)? = error else {
            Issue.record("expected invalidPrivateKey, got \(String(describing: error))")
            return
        }
    }

    @Test(
        "a key that is not the certificate's key (same or other type) does not match",
        arguments: ["otherECKey", "ed25519Key"])
    func mismatchedKey(which: String) {
        let key = which == "otherECKey" ? files.otherECKey : files.ed25519Key
        let error = startUpError(certificate: files.certificate, key: key)
        guard case .keyDoesNotMatchCertificate(files.certificate, key, let openSSL)? = error else {
            Issue.record("expected keyDoesNotMatchCertificate, got \(String(describing: error))")
            return
        }
        #expect(!openSSL.isEmpty)
        let description = error?.description ?? ""
        #expect(description.contains("'\(key)' does not match the certificate in '\(files.certificate)'"))
    }

    @Test("a client's missing CA file is reported as missing")
    func clientMissingCAFile() {
        let path = files.directory + "/no-such-ca.pem"
        #expect(throws: TLSError.fileNotFound(path: path, role: .certificateAuthorities)) {
            try TLSContext.client(verify: true, caFile: path)
        }
    }

    @Test("a client's CA file that is not PEM is refused")
    func clientGarbageCAFile() {
        do {
            _ = try TLSContext.client(verify: true, caFile: files.garbage)
            Issue.record("expected an error")
        } catch {
            guard case .invalidCertificate(files.garbage, .certificateAuthorities, _) = error else {
                Issue.record("expected invalidCertificate, got \(error)")
                return
            }
        }
    }
}
