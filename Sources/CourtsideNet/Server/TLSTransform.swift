import CourtsideTLS

/// TLS between the socket and HTTP/WebSocket: ciphertext in, plaintext up; plaintext down, ciphertext out. The
/// plaintext queued during one loop iteration is encrypted in one go (`writePlaintext(contentsOf:)` joins small
/// chunks into full records), because TLS has no `writev` and each write costs a record; a lone chunk (a broadcast
/// frame shared by every subscriber) is encrypted from its own storage, and the records land in the connection's
/// reused output buffer, so a delivery costs one encryption, no copy of the plaintext and no heap block of ours.
/// Loop-confined.
final class TLSTransform: ConnectionTransform {
    private let tls: TLSConnection
    /// Called once when the handshake completes (the HTTP layer starts its request deadline then).
    var onHandshakeComplete: (() -> Void)?
    /// Plaintext buffer reused between reads while it stays small; a large message's buffer is released.
    private var scratch: [UInt8] = []
    private static let retainedScratchBytes = 16 * 1024

    init?(context: TLSContext) {
        guard let tls = try? TLSConnection(context: context) else { return nil }
        self.tls = tls
    }

    func received(
        _ bytes: UnsafeRawBufferPointer, connection: Connection, deliver: (UnsafeRawBufferPointer) -> Void
    ) -> TransformOutcome {
        tls.receive(ciphertext: bytes)
        let wasComplete = tls.isHandshakeComplete
        var plaintext = scratch
        scratch = []
        let result = tls.readPlaintext(into: &plaintext)
        // Handshake records (and any alert) were generated before the application can write anything.
        let handshakeBytes = tls.takeCiphertext()
        if !wasComplete && tls.isHandshakeComplete { onHandshakeComplete?() }
        if !plaintext.isEmpty {
            if !handshakeBytes.isEmpty { connection.writeRaw(handshakeBytes) }
            plaintext.withUnsafeBytes { deliver($0) }
            plaintext.removeAll(keepingCapacity: true)
            if plaintext.capacity <= Self.retainedScratchBytes { scratch = plaintext }
            return outcome(for: result, send: [])
        }
        if plaintext.capacity <= Self.retainedScratchBytes { scratch = plaintext }
        return outcome(for: result, send: handshakeBytes)
    }

    private func outcome(for result: TLSReadResult, send: [UInt8]) -> TransformOutcome {
        let more = send + tls.takeCiphertext()
        switch result {
        case .needsMoreData:
            return .proceed(send: more)
        case .closed:
            return .fail(send: more, reason: "peer closed the TLS session")
        case .failed(let error):
            return .fail(send: more, reason: "\(error)")
        }
    }

    func encode(_ plaintext: [WriteQueue.Chunk], appendingTo output: inout [UInt8]) -> EncodeOutcome {
        let outcome: EncodeOutcome
        do {
            // Read in place, not mapped: no array of arrays per flush.
            try tls.writePlaintext(chunkCount: plaintext.count) { plaintext[$0].bytes }
            outcome = .encoded
        } catch {
            outcome = .failed(reason: "\(error)")
        }
        // The records, or after a failure the alert that tells the peer why.
        tls.takeCiphertext(appendingTo: &output)
        return outcome
    }

    func closingBytes() -> [UInt8] {
        tls.shutdown()
        return tls.takeCiphertext()
    }
}
