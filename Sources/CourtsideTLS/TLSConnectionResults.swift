/// What a handshake step achieved.
public enum TLSHandshakeResult: Sendable, Equatable {
    /// The handshake is done: application data may flow. Received ciphertext may already hold application data
    /// (a client's request often arrives with its Finished message), so call `readPlaintext(into:)` next.
    case complete
    /// Waiting for the peer: send what `takeCiphertext()` returns (if anything), then feed the next bytes read.
    case needsMoreData
    /// The handshake failed. `takeCiphertext()` may still hold the alert that tells the peer why: send it, then
    /// close the socket.
    case failed(TLSError)
}

/// What draining the received ciphertext produced (the plaintext itself went into the caller's buffer).
public enum TLSReadResult: Sendable, Equatable {
    /// Every complete record was decrypted; wait for more bytes from the socket.
    case needsMoreData
    /// The peer ended the TLS session. `clean` is true when it sent close_notify (our close_notify reply is then
    /// queued in `takeCiphertext()`); false when the transport ended without one (a truncation the application
    /// may want to log; HTTP framing tells whether anything was actually lost).
    case closed(clean: Bool)
    /// A fatal TLS error (bad record MAC, unexpected message, …). Send `takeCiphertext()` (the alert), then close.
    case failed(TLSError)
}
