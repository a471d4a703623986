import COpenSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Loading PEM files into a context, with errors that name the file and the problem.
///
/// The existence and readability checks run before OpenSSL sees the path, because OpenSSL reports a missing file
/// and a permission problem alike ("system library: No such file or directory" or "BIO routines: no such file"),
/// and an operator needs to know which one it is.
enum TLSFiles {
    /// Throws `.fileNotFound` or `.fileUnreadable` unless `path` is a regular file this process can open.
    static func checkReadable(_ path: String, role: TLSFileRole) throws(TLSError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .fileNotFound(path: path, role: role) }
            throw .fileUnreadable(path: path, role: role, reason: describe(errno: code))
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw .fileUnreadable(path: path, role: role, reason: describe(errno: errno))
        }
        // open(2) succeeds on a directory (as root it succeeds on anything); reading it then fails with EISDIR.
        if status.st_mode & S_IFMT == S_IFDIR {
            throw .fileUnreadable(path: path, role: role, reason: "is a directory")
        }
    }

    /// Loads the leaf certificate and its intermediates (`SSL_CTX_use_certificate_chain_file`).
    static func loadCertificateChain(_ path: String, into ctx: OpaquePointer) throws(TLSError) {
        OpenSSLErrorQueue.clear()
        guard SSL_CTX_use_certificate_chain_file(ctx, path) == 1 else {
            throw .invalidCertificate(path: path, role: .certificateChain, openSSL: OpenSSLErrorQueue.drain())
        }
    }

    /// Parses the key first (so a malformed key and a mismatched key are told apart), installs it, then checks it
    /// against the leaf certificate loaded before.
    static func loadPrivateKey(_ path: String, matching certificatePath: String, into ctx: OpaquePointer)
        throws(TLSError)
    {
        OpenSSLErrorQueue.clear()
        guard let bio = BIO_new_file(path, "r") else {
            throw .fileUnreadable(path: path, role: .privateKey, reason: OpenSSLErrorQueue.drain())
        }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, refusePassphrase, nil) else {
            throw .invalidPrivateKey(path: path, openSSL: OpenSSLErrorQueue.drain())
        }
        defer { EVP_PKEY_free(key) }
        // SSL_CTX_use_PrivateKey already refuses a key of the certificate's type that does not match it; a key of
        // another type (an RSA key for an EC certificate) is accepted into its own slot and caught by the check.
        guard SSL_CTX_use_PrivateKey(ctx, key) == 1, SSL_CTX_check_private_key(ctx) == 1 else {
            throw .keyDoesNotMatchCertificate(
                certificatePath: certificatePath, privateKeyPath: path, openSSL: OpenSSLErrorQueue.drain())
        }
    }

    private static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: text)), errno \(code)"
    }
}
