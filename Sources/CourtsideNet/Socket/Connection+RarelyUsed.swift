/// The state a connection keeps out of line, made the first time it is needed: most connections never have a
/// transform, and one whose writes keep flowing never needs a deadline, so an idle connection carries one optional
/// reference for both (docs/benchmarks.md, "Idle memory"). Confined to the connection's loop, like `Connection`.
extension Connection {
    /// The transform and the plaintext it has yet to encode (at flush time), with the tags of `WriteQueue`.
    final class TransformState {
        let transform: any ConnectionTransform
        var plaintext: [WriteQueue.Chunk] = []
        var plaintextBytes = 0

        init(_ transform: any ConnectionTransform) {
            self.transform = transform
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
