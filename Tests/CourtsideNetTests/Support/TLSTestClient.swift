import CourtsideNet
import Foundation

/// A self-signed certificate for `localhost` and 127.0.0.1, made with the `openssl` CLI in a scratch directory.
struct TestCertificate {
    let directory: TemporaryDirectory
    var certificatePath: String { "\(directory.path)/cert.pem" }
    var keyPath: String { "\(directory.path)/key.pem" }

    init() throws {
        directory = TemporaryDirectory()
        let result = try run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", "\(directory.path)/key.pem", "-out", "\(directory.path)/cert.pem",
            ])
        guard result.status == 0 else { throw TestClientError.malformed("openssl req: \(result.stderr)") }
    }

    func serverContext() throws -> TLSContext {
        try TLSContext(configuration: TLSConfiguration(certificateChainPath: certificatePath, privateKeyPath: keyPath))
    }
}

extension TestClient {
    /// Runs a TLS handshake over this connection with `TLSConnection` and routes later sends and reads through it.
    func startTLS(context: TLSContext) throws -> TLSConnection {
        let tls = try TLSConnection(context: context, serverName: "localhost")
        for _ in 0..<100 {
            let result = tls.handshake()
            let out = tls.takeCiphertext()
            if !out.isEmpty { try sendRaw(out) }
            switch result {
            case .complete:
                installHooks(tls)
                return tls
            case .failed(let error):
                throw TestClientError.malformed("TLS handshake: \(error)")
            case .needsMoreData:
                let bytes = try readRaw("TLS handshake")
                if bytes.isEmpty { throw TestClientError.closed("TLS handshake") }
                tls.receive(ciphertext: bytes)
            }
        }
        throw TestClientError.timedOut("TLS handshake")
    }

    private func installHooks(_ tls: TLSConnection) {
        writeHook = { [unowned self] bytes in
            try tls.writePlaintext(bytes)
            try self.sendRaw(tls.takeCiphertext())
        }
        readHook = { [unowned self] in
            for _ in 0..<10_000 {
                var plaintext: [UInt8] = []
                let result = tls.readPlaintext(into: &plaintext)
                let out = tls.takeCiphertext()
                if !out.isEmpty { try? self.sendRaw(out) }
                if !plaintext.isEmpty { return plaintext }
                switch result {
                case .closed: return []
                case .failed(let error): throw TestClientError.malformed("TLS read: \(error)")
                case .needsMoreData:
                    let bytes = try self.readRaw("TLS records")
                    if bytes.isEmpty { return [] }
                    tls.receive(ciphertext: bytes)
                }
            }
            throw TestClientError.timedOut("TLS plaintext")
        }
    }
}
