import CourtsideTLS

/// The client side of TLS for a load client a ``ClientLoop`` drives (a spectator, a fan-out subscriber): a
/// memory-BIO ``TLSConnection`` that takes the socket's ciphertext in and hands back ciphertext to write, so the
/// client's WebSocket state machine sees plaintext only and never touches the socket.
struct ClientTLS {
    /// What one read from the socket gave: ciphertext to write back (handshake records, key updates), the
    /// plaintext decrypted so far, and whether the stream still goes on.
    struct Received {
        var ciphertext: [UInt8]
        var plaintext: [UInt8]
        var result: TLSReadResult
    }

    private let connection: TLSConnection

    private init(connection: TLSConnection) {
        self.connection = connection
    }

    /// How a client's connection starts: its first bytes to write and its TLS state, or why it cannot start.
    struct Opening {
        var tls: ClientTLS?
        var firstBytes: [UInt8] = []
        var failure: LoadClientFailure?
    }

    /// A WebSocket client's first bytes: its upgrade request to `target` (offering permessage-deflate when asked)
    /// as it is when `context` is nil, else the ClientHello, with the request queued behind the handshake (the
    /// connection keeps it until the handshake completes, then encrypts it in order).
    static func open(_ context: TLSContext?, upgradeTo target: LoadTarget, key: String, offerDeflate: Bool) -> Opening {
        let request = LoadHandshake.request(
            target: target, key: key, extensions: offerDeflate ? ClientMessageReader.deflateOffer : nil)
        guard let context else { return Opening(firstBytes: request) }
        do throws(TLSError) {
            let connection = try TLSConnection(context: context)
            _ = connection.handshake()
            try connection.writePlaintext(request)
            return Opening(tls: ClientTLS(connection: connection), firstBytes: connection.takeCiphertext())
        } catch {
            return Opening(failure: .handshakeInvalid("TLS: \(error)"))
        }
    }

    /// Feeds what the socket read and takes out what it unlocks.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Received {
        connection.receive(ciphertext: bytes)
        var plaintext: [UInt8] = []
        let result = connection.readPlaintext(into: &plaintext)
        return Received(ciphertext: connection.takeCiphertext(), plaintext: plaintext, result: result)
    }

    /// `plaintext` as records to write; nil when the connection can no longer send (it failed or closed).
    func seal(_ plaintext: [UInt8]) -> [UInt8]? {
        do {
            try connection.writePlaintext(plaintext)
        } catch {
            return nil
        }
        return connection.takeCiphertext()
    }
}

@available(*, unavailable) extension ClientTLS: Sendable {}
