import COpenSSL

/// A configured OpenSSL `SSL_CTX`, shared by every connection of one role on every event loop.
///
/// **Why `@unchecked Sendable` is safe:** the only stored state is an immutable pointer to an `SSL_CTX` that is fully
/// configured inside the initializer and never mutated afterwards, and OpenSSL locks the context's internally
/// mutable parts (reference count, session cache, ticket keys) itself. Connections created from it on different
/// threads each get their own `SSL`.
///
/// **Certificate reload:** a context never changes. To reload, build a new `TLSContext` from the new files (which
/// validates them before anything is swapped) and hand it to the loops for *new* connections; each `SSL` holds a
/// reference to the `SSL_CTX` it was made from, so connections in flight finish on the old one, which is freed with
/// the last of them.
///
/// Not supported yet: client-certificate authentication, several certificates selected by SNI, OCSP stapling.
public final class TLSContext: @unchecked Sendable {
    /// Which side of the handshake connections made from this context play.
    public enum Role: Sendable, Equatable {
        case server
        case client
    }

    /// The `SSL_CTX*`; immutable after `init`.
    let pointer: OpaquePointer
    public let role: Role

    private init(pointer: OpaquePointer, role: Role) {
        self.pointer = pointer
        self.role = role
    }

    deinit {
        SSL_CTX_free(pointer)
    }

    /// A server context from a PEM certificate chain and private key. Throws a `TLSError` naming the file and the
    /// problem: missing, unreadable, not PEM, or a key that does not match the certificate.
    public convenience init(configuration: TLSConfiguration) throws(TLSError) {
        try TLSFiles.checkReadable(configuration.certificateChainPath, role: .certificateChain)
        try TLSFiles.checkReadable(configuration.privateKeyPath, role: .privateKey)

        OpenSSLErrorQueue.clear()
        guard let ctx = SSL_CTX_new(TLS_server_method()) else {
            throw .contextSetupFailed(step: "SSL_CTX_new", openSSL: OpenSSLErrorQueue.drain())
        }
        // From here on `self` owns ctx, so every throw below frees it in deinit.
        self.init(pointer: ctx, role: .server)
        try applyCommonPolicy(minimumVersion: .tls1_2, maximumVersion: nil)
        // RFC 9325 §4.1 (BCP 195): servers should enforce their own cipher preference.
        SSL_CTX_set_options(ctx, cossl_op_cipher_server_preference())
        // TLS 1.2: forward secrecy and AEAD only (RFC 9325 §4.2); TLS 1.3 keeps OpenSSL's suites, all of them AEAD
        // with ephemeral keys. Without this OpenSSL's DEFAULT offers CBC suites (LUCKY13) and static RSA.
        guard SSL_CTX_set_cipher_list(ctx, Self.serverTLS12CipherList) == 1 else {
            throw .contextSetupFailed(step: "cipher list", openSSL: OpenSSLErrorQueue.drain())
        }

        try TLSFiles.loadCertificateChain(configuration.certificateChainPath, into: ctx)
        try TLSFiles.loadPrivateKey(
            configuration.privateKeyPath, matching: configuration.certificateChainPath, into: ctx)

        _ = cossl_ctx_set_session_cache_mode(ctx, Int(SSL_SESS_CACHE_SERVER))
        _ = cossl_ctx_sess_set_cache_size(ctx, max(0, configuration.sessionCacheSize))
        let sessionContext = Array("courtside".utf8)
        guard SSL_CTX_set_session_id_context(ctx, sessionContext, UInt32(sessionContext.count)) == 1,
            SSL_CTX_set_num_tickets(ctx, max(0, configuration.sessionTicketCount)) == 1
        else {
            throw .contextSetupFailed(step: "session cache", openSSL: OpenSSLErrorQueue.drain())
        }
        SSL_CTX_set_alpn_select_cb(ctx, selectHTTP11, nil)
    }

    /// The TLS 1.2 suites a server offers, in preference order: ECDHE key exchange (forward secrecy) with AES-GCM or
    /// ChaCha20-Poly1305 (AEAD), for ECDSA and RSA certificates. The list of RFC 9325 §4.2 and of Mozilla's
    /// "intermediate" profile minus DHE (finite-field groups cost more and add nothing a TLS 1.2 client lacks: every
    /// client with an AEAD suite also has ECDHE). No CBC (LUCKY13, RFC 9325 §4.2), no static RSA, no SHA-1 MAC.
    public static let serverTLS12CipherList = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    /// A client context, for tests and the load generator.
    ///
    /// - Parameters:
    ///   - verify: verify the server certificate chain (and, when the connection is given a server name, the host
    ///     name). Off is only for self-signed loopback tests.
    ///   - caFile: PEM file of trusted certificates; `nil` uses the system's default trust store.
    ///   - applicationProtocols: ALPN protocols offered, in preference order; empty offers none.
    ///   - minimumVersion, maximumVersion: protocol range offered (a test can make a client the server must refuse).
    ///   - cipherList: an OpenSSL TLS ≤ 1.2 cipher string, e.g. `"DEFAULT:@SECLEVEL=0"` so OpenSSL agrees to build
    ///     a TLS 1.1 ClientHello at all.
    public static func client(
        verify: Bool,
        caFile: String? = nil,
        applicationProtocols: [String] = ["http/1.1"],
        minimumVersion: TLSProtocolVersion = .tls1_2,
        maximumVersion: TLSProtocolVersion? = nil,
        cipherList: String? = nil
    ) throws(TLSError) -> TLSContext {
        if let caFile { try TLSFiles.checkReadable(caFile, role: .certificateAuthorities) }
        OpenSSLErrorQueue.clear()
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            throw .contextSetupFailed(step: "SSL_CTX_new", openSSL: OpenSSLErrorQueue.drain())
        }
        let context = TLSContext(pointer: ctx, role: .client)
        try context.applyCommonPolicy(minimumVersion: minimumVersion, maximumVersion: maximumVersion)
        if let cipherList, SSL_CTX_set_cipher_list(ctx, cipherList) != 1 {
            throw .contextSetupFailed(step: "cipher list '\(cipherList)'", openSSL: OpenSSLErrorQueue.drain())
        }
        if verify {
            SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
            if let caFile {
                guard SSL_CTX_load_verify_locations(ctx, caFile, nil) == 1 else {
                    throw .invalidCertificate(
                        path: caFile, role: .certificateAuthorities, openSSL: OpenSSLErrorQueue.drain())
                }
            } else if SSL_CTX_set_default_verify_paths(ctx) != 1 {
                throw .contextSetupFailed(step: "default trust store", openSSL: OpenSSLErrorQueue.drain())
            }
        } else {
            SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nil)
        }
        if !applicationProtocols.isEmpty {
            // ALPN wire format (RFC 7301 §3.1): each name prefixed by its one-byte length.
            var wire: [UInt8] = []
            for name in applicationProtocols where !name.isEmpty && name.utf8.count <= 255 {
                wire.append(UInt8(name.utf8.count))
                wire.append(contentsOf: name.utf8)
            }
            // Inverted convention: SSL_CTX_set_alpn_protos returns 0 on success.
            guard SSL_CTX_set_alpn_protos(ctx, wire, UInt32(wire.count)) == 0 else {
                throw .contextSetupFailed(step: "ALPN protocols", openSSL: OpenSSLErrorQueue.drain())
            }
        }
        // The load generator opens many short-lived connections; a client session cache would only grow.
        _ = cossl_ctx_set_session_cache_mode(ctx, Int(SSL_SESS_CACHE_OFF))
        return context
    }

    /// Settings shared by both roles.
    private func applyCommonPolicy(minimumVersion: TLSProtocolVersion, maximumVersion: TLSProtocolVersion?)
        throws(TLSError)
    {
        guard cossl_ctx_set_min_proto_version(pointer, minimumVersion.rawValue) == 1 else {
            throw .contextSetupFailed(step: "minimum protocol version", openSSL: OpenSSLErrorQueue.drain())
        }
        if let maximumVersion, cossl_ctx_set_max_proto_version(pointer, maximumVersion.rawValue) != 1 {
            throw .contextSetupFailed(step: "maximum protocol version", openSSL: OpenSSLErrorQueue.drain())
        }
        // No compression (CRIME), no renegotiation (a DoS lever in TLS 1.2, and it would make SSL_write wait for a
        // read), and a peer that drops TCP without close_notify reads as a close, not as SSL_ERROR_SYSCALL.
        let options =
            cossl_op_no_compression() | cossl_op_no_renegotiation() | cossl_op_ignore_unexpected_eof()
        SSL_CTX_set_options(pointer, options)
        // RELEASE_BUFFERS frees the record buffers while a connection is idle (~14 KB per idle connection instead of
        // ~50 KB). ACCEPT_MOVING_WRITE_BUFFER because a retried write may come from a different Swift array.
        let mode = Int(SSL_MODE_RELEASE_BUFFERS | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER)
        _ = cossl_ctx_set_mode(pointer, mode)
        // Never prompt on a terminal for a key passphrase: encrypted keys fail with an error instead.
        SSL_CTX_set_default_passwd_cb(pointer, refusePassphrase)
    }
}

/// `pem_password_cb` that supplies no passphrase, so loading an encrypted key fails instead of reading a terminal.
let refusePassphrase: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 =
    { _, _, _, _ in 0 }

/// ALPN selection (RFC 7301 §3.2): pick `http/1.1` from the client's list. A client that offers ALPN but not
/// `http/1.1` gets the fatal `no_application_protocol` alert the RFC requires; a client offering no ALPN at all is
/// served HTTP/1.1 without the extension (this callback is not called).
private let selectHTTP11:
    @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
        UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
    ) -> Int32 = { _, out, outLength, offered, offeredLength, _ in
        guard let out, let outLength, let offered else { return SSL_TLSEXT_ERR_ALERT_FATAL }
        let wanted = Array("http/1.1".utf8)
        var index = 0
        let count = Int(offeredLength)
        while index < count {
            let length = Int(offered[index])
            let start = index + 1
            guard length > 0, start + length <= count else { break }
            if length == wanted.count, (0..<length).allSatisfy({ offered[start + $0] == wanted[$0] }) {
                // Points into the client's list, which OpenSSL keeps alive for the rest of the handshake.
                out.pointee = offered + start
                outLength.pointee = UInt8(length)
                return SSL_TLSEXT_ERR_OK
            }
            index = start + length
        }
        return SSL_TLSEXT_ERR_ALERT_FATAL
    }
