/// Which file a start-up error is about, so the message tells the operator which flag to fix.
public enum TLSFileRole: String, Sendable, Equatable {
    case certificateChain = "certificate chain"
    case privateKey = "private key"
    case certificateAuthorities = "CA certificates"
}

/// Everything that can go wrong in CourtsideTLS: at start-up (files, context) and on a connection.
///
/// Start-up cases name the file and the problem; `openSSL` carries OpenSSL's own error strings (library and reason,
/// oldest first) for the details. `description` is written for an operator reading a log or a terminal.
public enum TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist (ENOENT, or a directory on the way is missing).
    case fileNotFound(path: String, role: TLSFileRole)
    /// The file exists but cannot be read: permissions, a directory given as the path, an I/O error.
    case fileUnreadable(path: String, role: TLSFileRole, reason: String)
    /// The file holds no PEM certificate OpenSSL accepts (no `BEGIN CERTIFICATE`, corrupt base64, …).
    case invalidCertificate(path: String, role: TLSFileRole, openSSL: String)
    /// The key file holds no PEM private key OpenSSL accepts; passphrase-protected keys are refused too,
    /// because a server must not stop to prompt on a terminal.
    case invalidPrivateKey(path: String, openSSL: String)
    /// The private key is not the one the (leaf) certificate was issued for (`SSL_CTX_check_private_key`).
    case keyDoesNotMatchCertificate(certificatePath: String, privateKeyPath: String, openSSL: String)
    /// OpenSSL refused a context setting; a bug or a broken OpenSSL installation, not an operator error.
    case contextSetupFailed(step: String, openSSL: String)
    /// The handshake failed: the peer's alert or our reason (protocol version, no shared cipher, bad record…).
    case handshakeFailed(openSSL: String)
    /// The transport ended before the handshake finished.
    case unexpectedEndOfStream
    /// A TLS protocol error after the handshake (bad record MAC, unexpected message, …).
    case protocolError(openSSL: String)
    /// Plaintext was written after the connection was shut down, failed, or the peer closed it.
    case connectionClosed

    public var description: String {
        switch self {
        case .fileNotFound(let path, let role):
            return "TLS \(role.rawValue) file '\(path)': no such file"
        case .fileUnreadable(let path, let role, let reason):
            return "TLS \(role.rawValue) file '\(path)': cannot be read (\(reason))"
        case .invalidCertificate(let path, let role, let openSSL):
            return "TLS \(role.rawValue) file '\(path)': not a PEM certificate (OpenSSL: \(openSSL))"
        case .invalidPrivateKey(let path, let openSSL):
            return "TLS private key file '\(path)': not an unencrypted PEM private key (OpenSSL: \(openSSL))"
        case .keyDoesNotMatchCertificate(let certificatePath, let privateKeyPath, let openSSL):
            return "TLS private key file '\(privateKeyPath)' does not match the certificate in '\(certificatePath)'"
                + " (OpenSSL: \(openSSL))"
        case .contextSetupFailed(let step, let openSSL):
            return "TLS context setup failed at \(step) (OpenSSL: \(openSSL))"
        case .handshakeFailed(let openSSL):
            return "TLS handshake failed (OpenSSL: \(openSSL))"
        case .unexpectedEndOfStream:
            return "TLS connection closed by the peer before the handshake completed"
        case .protocolError(let openSSL):
            return "TLS protocol error (OpenSSL: \(openSSL))"
        case .connectionClosed:
            return "TLS connection is closed"
        }
    }
}
