import CourtsideTestSupport
import Foundation

/// PEM files made once per test process with the `openssl` CLI, in a fresh temporary directory.
struct TestCertificates: Sendable {
    let directory: String
    /// Self-signed P-256 certificate for CN=localhost, SAN DNS:localhost and IP:127.0.0.1, valid for one day.
    let certificate: String
    let key: String
    /// A second P-256 key: same type as the certificate's, but not its key.
    let otherECKey: String
    /// An Ed25519 key: another key type altogether.
    let ed25519Key: String
    /// The certificate's own key, encrypted with a passphrase.
    let encryptedKey: String
    /// Text that is not PEM at all.
    let garbage: String

    /// Made on first use and shared by every test (the `openssl` runs cost ~50 ms).
    static func shared() throws -> TestCertificates {
        try made.get()
    }

    private static let made = Result { try TestCertificates.make() }

    private static func make() throws -> TestCertificates {
        let directory = NSTemporaryDirectory() + "courtside-tls-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = { (name: String) in "\(directory)/\(name)" }
        try runOpenSSL([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", path("key.pem"), "-out", path("cert.pem"),
        ])
        try runOpenSSL([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", path("other-ec.pem"),
        ])
        try runOpenSSL(["genpkey", "-algorithm", "ed25519", "-out", path("ed25519.pem")])
        try runOpenSSL([
            "pkey", "-in", path("key.pem"), "-aes256", "-passout", "pass:secret", "-out", path("encrypted-key.pem"),
        ])
        try Data("this is not a PEM file\n".utf8).write(to: URL(fileURLWithPath: path("garbage.pem")))
        return TestCertificates(
            directory: directory, certificate: path("cert.pem"), key: path("key.pem"),
            otherECKey: path("other-ec.pem"), ed25519Key: path("ed25519.pem"),
            encryptedKey: path("encrypted-key.pem"), garbage: path("garbage.pem"))
    }

    struct OpenSSLFailed: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        var description: String { "openssl \(arguments.joined(separator: " ")) exited with \(status)" }
    }

    static func runOpenSSL(_ arguments: [String]) throws {
        let outcome = try ChildProcess.run("/usr/bin/env", ["openssl"] + arguments)
        guard outcome.termination == .exited(0) else {
            throw OpenSSLFailed(arguments: arguments, status: outcome.termination.status)
        }
    }
}
