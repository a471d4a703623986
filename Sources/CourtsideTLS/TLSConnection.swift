import COpenSSL

/// One TLS session over memory BIOs: the caller moves ciphertext between the socket and this object, so it never
/// touches a file descriptor and can be tested by pumping bytes between two instances.
///
/// Event flow for the owner (the event loop):
/// 1. socket readable → `receive(ciphertext:)`, then `handshake()` until `.complete`, then `readPlaintext(into:)`;
/// 2. `writePlaintext(_:)` (join small messages first, or use `writePlaintext(contentsOf:)`: each `SSL_write` makes
///    at least one record, and TLS has no writev);
/// 3. after every call, send `takeCiphertext()` to the socket if it is not empty (or `takeCiphertext(appendingTo:)`
///    into an output buffer the owner keeps, which costs no heap block per call);
/// 4. to close: `shutdown()` (queues close_notify), send `takeCiphertext()`, close the socket;
///    on socket EOF: `receiveEndOfStream()`.
///
/// With memory BIOs the write side never blocks (the write BIO grows), so OpenSSL's `WANT_WRITE` cannot happen;
/// `SSL_write` could still want to read first (renegotiation is disabled, so only a handshake in progress does
/// that): such plaintext is kept and written once the session can proceed, in order.
///
/// Loop-confined: one thread at a time, never shared. Memory: OpenSSL's record buffers are released while idle
/// (`SSL_MODE_RELEASE_BUFFERS`), and drained memory BIOs larger than `retainedBIOBufferLimit` (or still sized
/// for the handshake) are replaced, because OpenSSL grows them to the largest burst and never shrinks them.
/// Measured: about 15 KB of heap per established, idle server connection (OpenSSL 3.0, TLS 1.3, P-256).
///
/// It has no clock: the handshake deadline (slowloris defence) is the owner's timer, which closes the socket.
///
/// Not supported: client-certificate authentication, TLS 1.3 half-close (a received close_notify is answered at
/// once), 0-RTT early data, several certificates selected by SNI.
public final class TLSConnection {
    /// Largest drained memory-BIO buffer kept for reuse, in bytes. 2 KiB holds a typical WebSocket or SSE record
    /// (so a message stream reuses its buffer) while an idle connection keeps at most 2 × 2 KiB here after a
    /// handshake flight or a large transfer grew its BIOs.
    public static let retainedBIOBufferLimit = 2048

    /// Plaintext read per `SSL_read_ex` call: the largest TLS record payload (2^14 bytes, RFC 8446 §5.1), so one
    /// call can return a whole record.
    static let readChunkSize = 16 * 1024

    /// The context this connection was made from; kept so the `SSL_CTX` outlives the connection.
    public let context: TLSContext
    let ssl: OpaquePointer
    /// Ciphertext from the peer; owned by `ssl`.
    var readBIO: OpaquePointer
    /// Ciphertext for the peer; owned by `ssl`.
    var writeBIO: OpaquePointer

    enum State {
        case handshaking
        case established
        case failed(TLSError)
    }
    var state: State = .handshaking
    /// We sent close_notify, or shut down before the handshake finished: no more plaintext may be written.
    var writeClosed = false
    /// The transport ended (socket EOF).
    var transportClosed = false

    /// Plaintext accepted but not yet encrypted: written before the handshake completed, or behind an `SSL_write`
    /// that has to be retried. Empty in the steady state, so it costs nothing per idle connection.
    var unsentPlaintext: [UInt8] = []
    /// Length of the `SSL_write` that must be retried (OpenSSL requires the same length), 0 if none.
    var retryLength = 0
    /// The BIOs still hold buffers sized for handshake flights (a certificate chain, a ClientHello), never the
    /// steady-state size: each is replaced at its first drain after the handshake, whatever its size.
    var readBIOHoldsHandshakeBuffer = true
    var writeBIOHoldsHandshakeBuffer = true

    /// A connection in the context's role. `serverName` (clients only) is sent as SNI (unless it is an IP
    /// address, RFC 6066 §3) and checked against the certificate when the context verifies.
    public init(context: TLSContext, serverName: String? = nil) throws(TLSError) {
        OpenSSLErrorQueue.clear()
        guard let ssl = SSL_new(context.pointer) else {
            throw .contextSetupFailed(step: "SSL_new", openSSL: OpenSSLErrorQueue.drain())
        }
        guard let readBIO = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw .contextSetupFailed(step: "BIO_new", openSSL: OpenSSLErrorQueue.drain())
        }
        guard let writeBIO = BIO_new(BIO_s_mem()) else {
            BIO_free(readBIO)
            SSL_free(ssl)
            throw .contextSetupFailed(step: "BIO_new", openSSL: OpenSSLErrorQueue.drain())
        }
        // SSL_set_bio takes ownership of both BIOs: SSL_free frees them.
        SSL_set_bio(ssl, readBIO, writeBIO)
        self.context = context
        self.ssl = ssl
        self.readBIO = readBIO
        self.writeBIO = writeBIO
        switch context.role {
        case .server:
            SSL_set_accept_state(ssl)
        case .client:
            if let serverName { try configurePeerName(serverName) }
            SSL_set_connect_state(ssl)
        }
    }

    deinit {
        SSL_free(ssl)
    }

    private func configurePeerName(_ name: String) throws(TLSError) {
        let isIPAddress = name.contains(":") || name.allSatisfy { $0.isNumber || $0 == "." }
        if isIPAddress {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) == 1 else {
                throw .contextSetupFailed(step: "peer IP address '\(name)'", openSSL: OpenSSLErrorQueue.drain())
            }
        } else {
            guard cossl_set_tlsext_host_name(ssl, name) == 1, SSL_set1_host(ssl, name) == 1 else {
                throw .contextSetupFailed(step: "server name '\(name)'", openSSL: OpenSSLErrorQueue.drain())
            }
        }
    }

    // MARK: Ciphertext in and out

    /// Feeds bytes read from the socket. They are copied into the read BIO; nothing is decrypted until
    /// `handshake()` or `readPlaintext(into:)`.
    public func receive(ciphertext: UnsafeRawBufferPointer) {
        guard let base = ciphertext.baseAddress, !ciphertext.isEmpty else { return }
        var offset = 0
        while offset < ciphertext.count {
            let length = Int32(clamping: ciphertext.count - offset)
            let written = BIO_write(readBIO, base + offset, length)
            // A memory BIO only refuses on allocation failure, where there is nothing sensible left to do.
            guard written > 0 else { preconditionFailure("Invalid state: memory BIO refused \(length) bytes") }
            offset += Int(written)
        }
    }

    /// Feeds bytes read from the socket.
    public func receive(ciphertext: [UInt8]) {
        ciphertext.withUnsafeBytes { receive(ciphertext: $0) }
    }

    /// Bytes waiting to be sent to the peer.
    public var pendingCiphertextCount: Int {
        Int(BIO_ctrl_pending(writeBIO))
    }

    /// Removes and returns everything waiting to be sent to the peer (handshake messages, records, alerts,
    /// close_notify). Empty when there is nothing to send.
    public func takeCiphertext() -> [UInt8] {
        let pending = pendingCiphertextCount
        guard pending > 0 else { return [] }
        let bytes = [UInt8](unsafeUninitializedCapacity: pending) { buffer, count in
            let read = BIO_read(writeBIO, buffer.baseAddress, Int32(clamping: pending))
            count = max(0, Int(read))
        }
        releaseWriteBIOIfOversized()
        return bytes
    }

    /// Moves everything waiting to be sent to the peer to the end of `buffer` and returns how many bytes that was.
    ///
    /// For an owner that keeps one output buffer per connection: `buffer`'s storage is reused whenever the caller
    /// holds its only reference (its previous contents went to the socket and were dropped), so a steady stream of
    /// records costs no heap block here, where `takeCiphertext()` makes a fresh array per call. If the storage is
    /// still shared (a socket queue holds the last records, unsent), appending copies it first: the queued bytes
    /// never change under the queue.
    @discardableResult
    public func takeCiphertext(appendingTo buffer: inout [UInt8]) -> Int {
        var taken = 0
        var pending = pendingCiphertextCount
        while pending > 0 {
            let start = buffer.count
            let length = Int(Int32(clamping: pending))
            // An array cannot grow uninitialized: zero the tail (a memset of a record's size) and read over it.
            buffer.append(contentsOf: repeatElement(0, count: length))
            let read = buffer.withUnsafeMutableBytes { bytes in
                BIO_read(writeBIO, bytes.baseAddress! + start, Int32(length))
            }
            // A memory BIO hands over what it reported pending; anything else is a broken invariant.
            guard read == Int32(length) else {
                preconditionFailure("Invalid state: memory BIO gave \(read) of \(length) pending bytes")
            }
            taken += length
            // A memory BIO is drained by reading what it reported: only a backlog clamped to 2 GiB needs a look.
            pending = length < pending ? pendingCiphertextCount : 0
        }
        if taken > 0 { releaseWriteBIOIfOversized() }
        return taken
    }

    // MARK: Handshake

    /// True once the handshake has completed (and stays true after a later close or failure).
    public private(set) var isHandshakeComplete = false

    /// Advances the handshake with the ciphertext received so far. Idempotent once complete or failed.
    public func handshake() -> TLSHandshakeResult {
        switch state {
        case .established: return .complete
        case .failed(let error): return .failed(error)
        case .handshaking: break
        }
        if transportClosed { return .failed(fail(.unexpectedEndOfStream)) }
        OpenSSLErrorQueue.clear()
        let rc = SSL_do_handshake(ssl)
        if rc == 1 {
            state = .established
            isHandshakeComplete = true
            releaseReadBIOIfOversized()
            if writeClosed {
                // shutdown() was asked for while handshaking: honour it now that close_notify can be sent.
                writeClosed = false
                shutdown()
            } else if case .failed(let error) = flushUnsentPlaintext() {
                return .failed(error)
            }
            return .complete
        }
        switch SSL_get_error(ssl, rc) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            // WANT_WRITE cannot happen with a memory BIO; treated alike for safety: send, then wait.
            return .needsMoreData
        case SSL_ERROR_ZERO_RETURN:
            return .failed(fail(.handshakeFailed(openSSL: "peer sent close_notify during the handshake")))
        default:
            return .failed(fail(.handshakeFailed(openSSL: handshakeFailureReason())))
        }
    }

    private func handshakeFailureReason() -> String {
        var reason = OpenSSLErrorQueue.drain()
        let verifyResult = SSL_get_verify_result(ssl)
        if verifyResult != X509_V_OK, let text = X509_verify_cert_error_string(verifyResult) {
            reason += "; certificate verification: \(String(cString: text))"
        }
        return reason
    }

    /// Records a fatal error: the session can only send the queued alert from now on.
    func fail(_ error: TLSError) -> TLSError {
        state = .failed(error)
        writeClosed = true
        unsentPlaintext = []
        retryLength = 0
        return error
    }

    // MARK: Closing

    /// Sends close_notify (RFC 8446 §6.1): it is queued in `takeCiphertext()`, after any plaintext written before.
    /// No plaintext may be written afterwards; reading still works until the peer answers. During the handshake
    /// nothing can be sent yet: writes stop at once and close_notify follows if the handshake completes (owners
    /// that close the socket instead lose nothing). Idempotent.
    public func shutdown() {
        guard !writeClosed else { return }
        writeClosed = true
        guard case .established = state else { return }
        _ = flushUnsentPlaintext()
        guard case .established = state, SSL_get_shutdown(ssl) & SSL_SENT_SHUTDOWN == 0 else { return }
        OpenSSLErrorQueue.clear()
        // Returns 0 (sent, peer's not yet received) or 1 (both done); with a memory BIO it cannot block.
        if SSL_shutdown(ssl) < 0 { _ = OpenSSLErrorQueue.drain() }
    }

    /// The peer sent close_notify.
    public var receivedCloseNotify: Bool {
        SSL_get_shutdown(ssl) & SSL_RECEIVED_SHUTDOWN != 0
    }

    /// The socket reached EOF. Call after `readPlaintext(into:)` has drained everything received.
    /// Returns `.closed(clean: true)` when close_notify came first, `.closed(clean: false)` when the peer just
    /// dropped the connection (accepted, as `SSL_OP_IGNORE_UNEXPECTED_EOF` would), and `.failed` during a handshake.
    public func receiveEndOfStream() -> TLSReadResult {
        transportClosed = true
        if receivedCloseNotify { return .closed(clean: true) }
        switch state {
        case .handshaking: return .failed(fail(.unexpectedEndOfStream))
        case .failed(let error): return .failed(error)
        case .established:
            writeClosed = true
            unsentPlaintext = []
            return .closed(clean: false)
        }
    }

    // MARK: Negotiated parameters

    /// The negotiated protocol version, once the handshake is complete.
    public var negotiatedProtocolVersion: TLSProtocolVersion? {
        guard isHandshakeComplete else { return nil }
        return TLSProtocolVersion(rawValue: SSL_version(ssl))
    }

    /// The ALPN protocol the server selected (`"http/1.1"`), or nil when the client offered none.
    public var negotiatedApplicationProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The negotiated cipher suite's OpenSSL name (e.g. `TLS_AES_256_GCM_SHA384`), for logs.
    public var cipherSuiteName: String? {
        guard isHandshakeComplete, let cipher = SSL_get_current_cipher(ssl), let name = SSL_CIPHER_get_name(cipher)
        else { return nil }
        return String(cString: name)
    }
}

@available(*, unavailable)
extension TLSConnection: Sendable {}
