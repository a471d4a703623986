import COpenSSL

extension TLSConnection {
    // MARK: Reading

    /// Decrypts every complete record received so far and appends the plaintext to `buffer`.
    ///
    /// Drains until OpenSSL wants more ciphertext: OpenSSL reads whole records and may hold decrypted bytes that
    /// the socket no longer signals, so stopping early would stall the connection. Drives the handshake first if it
    /// is not complete. A received close_notify is answered with ours (queued in `takeCiphertext()`).
    public func readPlaintext(into buffer: inout [UInt8]) -> TLSReadResult {
        switch state {
        case .failed(let error): return .failed(error)
        case .handshaking:
            switch handshake() {
            case .complete: break
            case .needsMoreData: return .needsMoreData
            case .failed(let error): return .failed(error)
            }
        case .established: break
        }
        if receivedCloseNotify { return .closed(clean: true) }
        while true {
            OpenSSLErrorQueue.clear()
            var count = 0
            let rc = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.readChunkSize) { chunk in
                let rc = SSL_read_ex(ssl, chunk.baseAddress, chunk.count, &count)
                if rc == 1 { buffer.append(contentsOf: chunk[..<count]) }
                return rc
            }
            if rc == 1 { continue }
            switch SSL_get_error(ssl, rc) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                // WANT_WRITE cannot happen with a memory write BIO. After WANT_READ everything received was
                // decrypted: a write waiting on a read (see `unsentPlaintext`) may proceed now.
                releaseReadBIOIfOversized()
                if case .failed(let error) = flushUnsentPlaintext() { return .failed(error) }
                return .needsMoreData
            case SSL_ERROR_ZERO_RETURN:
                // close_notify (RFC 8446 §6.1; RFC 5246 §7.2.1 requires the reply). TLS 1.3 half-close is not
                // offered: we answer at once and write no more.
                shutdown()
                return .closed(clean: true)
            default:
                return .failed(fail(.protocolError(openSSL: OpenSSLErrorQueue.drain())))
            }
        }
    }

    // MARK: Writing

    /// Encrypts `bytes` into records queued for `takeCiphertext()`. Before the handshake completes the plaintext
    /// is kept and written as soon as it does. Throws `.connectionClosed` after `shutdown()`, a failure, or the
    /// peer's close.
    ///
    /// Each call makes at least one record (≥ 22 bytes of overhead with TLS 1.3 AES-GCM, plus an encryption pass):
    /// join small messages, or use `writePlaintext(contentsOf:)`.
    public func writePlaintext(_ bytes: UnsafeRawBufferPointer) throws(TLSError) {
        guard !writeClosed else { throw .connectionClosed }
        guard !bytes.isEmpty else { return }
        if case .established = state, unsentPlaintext.isEmpty {
            switch write(bytes) {
            case .written: return
            case .retryLater:
                // Keep the exact bytes: the retry must have the same length (SSL_write(3), "WARNINGS").
                unsentPlaintext.append(contentsOf: bytes)
                retryLength = bytes.count
                return
            case .failed(let error): throw error
            }
        }
        unsentPlaintext.append(contentsOf: bytes)
        if case .failed(let error) = flushUnsentPlaintext() { throw error }
    }

    /// Encrypts `bytes`; see `writePlaintext(_:)` for the raw-buffer variant.
    public func writePlaintext(_ bytes: [UInt8]) throws(TLSError) {
        // withUnsafeBytes rethrows untyped errors, so the typed error is carried out as a value.
        let error = bytes.withUnsafeBytes { buffer -> TLSError? in
            do throws(TLSError) {
                try writePlaintext(buffer)
                return nil
            } catch {
                return error
            }
        }
        if let error { throw error }
    }

    /// Encrypts several messages with as few records as possible: consecutive chunks that fit one record together
    /// (up to `coalescingLimit` bytes) are joined into one `SSL_write`, and a chunk that stands alone (the one
    /// frame a broadcast subscriber gets per loop iteration, or one of a record's size) is encrypted straight from
    /// its own storage. TLS has no writev, and each `SSL_write` makes at least one record, so this is the
    /// broadcast path's equivalent.
    ///
    /// No heap block per call: the join of a run goes through a temporary allocation of at most one record (on the
    /// stack when it fits), and a lone chunk is not copied at all. A shared frame is delivered to many connections,
    /// each with its own keys, so only the encryption itself is per connection (docs/benchmarks.md, "spectators on
    /// `wss://`").
    public func writePlaintext(contentsOf chunks: [[UInt8]]) throws(TLSError) {
        try writePlaintext(chunkCount: chunks.count) { chunks[$0] }
    }

    /// `writePlaintext(contentsOf:)` for chunks that are not an array of arrays (a write queue's chunks with their
    /// tags): `chunk(i)` returns the i-th of `chunkCount`. Not generic over a collection: unspecialized across
    /// the module boundary, a lazy view's subscript allocated on every access (measured: 10 of 14 heap blocks
    /// per TLS delivery).
    public func writePlaintext(chunkCount: Int, chunk: (Int) -> [UInt8]) throws(TLSError) {
        var start = 0
        while start < chunkCount {
            var end = start + 1
            var total = chunk(start).count
            while end < chunkCount {
                let next = chunk(end).count
                guard total + next <= Self.coalescingLimit else { break }
                total += next
                end += 1
            }
            if end == start + 1 {
                try writePlaintext(chunk(start))
            } else {
                try writeJoined(start..<end, byteCount: total, chunk: chunk)
            }
            start = end
        }
    }

    /// One `writePlaintext` of the chunks in `run` joined, through a temporary buffer of `byteCount` bytes (at most
    /// one record).
    private func writeJoined(_ run: Range<Int>, byteCount: Int, chunk: (Int) -> [UInt8]) throws(TLSError) {
        // withUnsafeTemporaryAllocation rethrows untyped errors, so the typed error is carried out as a value.
        let error = withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: 1) { joined -> TLSError? in
            var offset = 0
            for index in run {
                let bytes = chunk(index)
                bytes.withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(rebasing: joined[offset...]).copyMemory(from: source)
                }
                offset += bytes.count
            }
            do throws(TLSError) {
                try writePlaintext(UnsafeRawBufferPointer(rebasing: joined[..<offset]))
                return nil
            } catch {
                return error
            }
        }
        if let error { throw error }
    }

    /// Batch size for `writePlaintext(contentsOf:)`: one maximum-size record (2^14 bytes, RFC 8446 §5.1).
    public static let coalescingLimit = 16 * 1024

    enum WriteOutcome {
        case written
        case retryLater
        case failed(TLSError)
    }

    /// One `SSL_write_ex` of all of `bytes` (partial writes are not enabled, so it is all or nothing).
    func write(_ bytes: UnsafeRawBufferPointer) -> WriteOutcome {
        OpenSSLErrorQueue.clear()
        var written = 0
        let rc = SSL_write_ex(ssl, bytes.baseAddress, bytes.count, &written)
        if rc == 1 { return .written }
        switch SSL_get_error(ssl, rc) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            // WANT_READ: OpenSSL must read first (a handshake message in flight); WANT_WRITE cannot happen with a
            // memory BIO. Either way the same bytes are retried after the next read.
            return .retryLater
        case SSL_ERROR_ZERO_RETURN:
            writeClosed = true
            return .failed(.connectionClosed)
        default:
            return .failed(fail(.protocolError(openSSL: OpenSSLErrorQueue.drain())))
        }
    }

    /// Writes the kept plaintext, oldest first, if the session is established. Returns `.failed` on a fatal error.
    @discardableResult
    func flushUnsentPlaintext() -> WriteOutcome {
        guard case .established = state else { return .retryLater }
        while !unsentPlaintext.isEmpty {
            let length = retryLength > 0 ? retryLength : unsentPlaintext.count
            let outcome = unsentPlaintext.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
            switch outcome {
            case .written:
                unsentPlaintext.removeFirst(length)
                retryLength = 0
            case .retryLater:
                retryLength = length
                return .retryLater
            case .failed:
                return outcome
            }
        }
        // Give the memory back: this buffer only exists for the rare wait.
        unsentPlaintext = []
        return .written
    }

    // MARK: Memory

    /// Replaces the read BIO once drained if its buffer grew past `retainedBIOBufferLimit` or still holds the
    /// handshake's buffer.
    func releaseReadBIOIfOversized() {
        guard isHandshakeComplete, BIO_ctrl_pending(readBIO) == 0 else { return }
        let capacity = cossl_bio_mem_capacity(readBIO)
        guard capacity > Self.retainedBIOBufferLimit || (readBIOHoldsHandshakeBuffer && capacity > 0),
            let fresh = BIO_new(BIO_s_mem())
        else { return }
        // SSL_set0_rbio frees the old BIO.
        SSL_set0_rbio(ssl, fresh)
        readBIO = fresh
        readBIOHoldsHandshakeBuffer = false
    }

    /// Replaces the write BIO once drained if its buffer grew past `retainedBIOBufferLimit` or still holds the
    /// handshake's buffer. Only after the handshake: during it OpenSSL may have a buffering BIO pushed in front
    /// of ours.
    func releaseWriteBIOIfOversized() {
        guard isHandshakeComplete, BIO_ctrl_pending(writeBIO) == 0 else { return }
        let capacity = cossl_bio_mem_capacity(writeBIO)
        guard capacity > Self.retainedBIOBufferLimit || (writeBIOHoldsHandshakeBuffer && capacity > 0),
            let fresh = BIO_new(BIO_s_mem())
        else { return }
        // SSL_set0_wbio frees the old BIO (and re-pushes OpenSSL's buffering BIO if one is in use).
        SSL_set0_wbio(ssl, fresh)
        writeBIO = fresh
        writeBIOHoldsHandshakeBuffer = false
    }
}

extension TLSConnection {
    /// Buffer capacity held by the read BIO (for tests and memory accounting).
    var readBIOCapacity: Int { cossl_bio_mem_capacity(readBIO) }
    /// Buffer capacity held by the write BIO (for tests and memory accounting).
    var writeBIOCapacity: Int { cossl_bio_mem_capacity(writeBIO) }
}
