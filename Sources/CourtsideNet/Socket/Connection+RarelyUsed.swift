/// The state a connection keeps out of line, made the first time it is needed: most connections never have a
/// transform, and one whose writes keep flowing never needs a deadline, so an idle connection carries one optional
/// reference for both (docs/benchmarks.md, "Idle memory"). Confined to the connection's loop, like `Connection`.
extension Connection {
    /// The transform and the plaintext it has yet to encode (at flush time), with the tags of `WriteQueue`, and
    /// the output buffer its bytes for the socket go through.
    final class TransformState {
        /// Largest output buffer kept between flushes, in bytes: a few records of a game's patches (a TLS
        /// connection's OpenSSL state is ~15 KB), while a large message's buffer goes with the queue that sends it.
        static let retainedOutputBytes = 2048
        /// Chunk slots of `plaintext` kept between flushes: a few frames queued in one loop iteration.
        static let retainedPlaintextChunks = 8

        let transform: any ConnectionTransform
        var plaintext: [WriteQueue.Chunk] = []
        var plaintextBytes = 0
        /// The transform's last output, shared with the write queue until the socket took it, then refilled in
        /// place (see `Connection.encodePendingPlaintext`).
        var output: [UInt8] = []

        init(_ transform: any ConnectionTransform) {
            self.transform = transform
        }

        /// Empties `plaintext` once encoded, keeping a small array's storage for the next flush.
        func plaintextEncoded() {
            plaintext.removeAll(keepingCapacity: plaintext.capacity <= Self.retainedPlaintextChunks)
            plaintextBytes = 0
        }

        /// Lets a grown output buffer go (to the queue, which frees it once written) rather than keep it.
        func releaseOversizedOutput() {
            if output.capacity > Self.retainedOutputBytes { output = [] }
        }
    }

    final class RarelyUsed {
        var transformState: TransformState?
        /// The write-progress deadline and the close linger with the loop timer that performs both; made the
        /// first time the kernel pushes back or the connection lingers.
        var deadlines: DeadlineState?

        /// The deadline state, made on first use.
        func deadlineState(writeTimeout: Duration) -> DeadlineState {
            if let deadlines { return deadlines }
            let made = DeadlineState(writeTimeout: writeTimeout)
            deadlines = made
            return made
        }
    }

    /// The transport's deadlines and the timer armed for them.
    final class DeadlineState {
        var deadlines: TransportDeadlines
        var timer: TimerID?

        init(writeTimeout: Duration) {
            deadlines = TransportDeadlines(writeTimeout: writeTimeout, lingerTimeout: Connection.lingerTimeout)
        }
    }
}
