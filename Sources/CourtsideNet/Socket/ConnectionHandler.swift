/// The protocol layer above a connection (HTTP, then maybe WebSocket or SSE). Loop-confined.
protocol ConnectionHandler: AnyObject {
    /// Plaintext bytes arrived. They live in the loop's shared read buffer: copy what must outlive the call.
    func connection(_ connection: Connection, received bytes: UnsafeRawBufferPointer, context: LoopContext)
    /// The peer shut down its sending side (read returned 0). The default closes after queued writes.
    func connectionInputClosed(_ connection: Connection, context: LoopContext)
    /// The write queue emptied after the socket pushed back or after `notifyWhenDrained()`: a backpressure hook.
    func connectionDrained(_ connection: Connection, context: LoopContext)
    /// The server is shutting down gracefully: finish what is in flight and close (WebSockets send 1001).
    func connectionShouldShutDown(_ connection: Connection, context: LoopContext)
    /// The fd is closed; drop references and timers. Called exactly once.
    func connectionClosed(_ connection: Connection, context: LoopContext)
}

extension ConnectionHandler {
    func connectionInputClosed(_ connection: Connection, context: LoopContext) {
        connection.closeAfterFlush()
    }

    func connectionDrained(_ connection: Connection, context: LoopContext) {}

    func connectionShouldShutDown(_ connection: Connection, context: LoopContext) {
        connection.closeAfterFlush()
    }
}

/// A layer between the socket and the protocol handler that transforms bytes both ways (TLS).
protocol ConnectionTransform: AnyObject {
    /// Feeds received bytes; delivers plaintext through `deliver` and returns what to do next.
    func received(
        _ bytes: UnsafeRawBufferPointer, connection: Connection, deliver: (UnsafeRawBufferPointer) -> Void
    ) -> TransformOutcome
    /// Turns queued plaintext chunks into bytes for the socket, appended to `output`: the connection's output
    /// buffer, reused from one flush to the next (TLS joins small chunks into as few records as it can, since it
    /// has no `writev`, and encrypts a lone chunk from its own storage).
    func encode(_ plaintext: [WriteQueue.Chunk], appendingTo output: inout [UInt8]) -> EncodeOutcome
    /// Bytes to send before closing (a TLS close_notify), if any.
    func closingBytes() -> [UInt8]
}

enum TransformOutcome {
    /// Keep going; the bytes (possibly none) go to the socket.
    case proceed(send: [UInt8])
    /// The layer failed: send what it produced (an alert), then close.
    case fail(send: [UInt8], reason: String)
}

/// What encoding queued plaintext came to; the bytes (possibly none) are in the output buffer either way.
enum EncodeOutcome {
    case encoded
    /// The layer failed: send what it produced (an alert), then close.
    case failed(reason: String)
}

/// What holds a connection on its loop (the server's registry): told once when the descriptor closes, after the
/// handler. Loop-confined.
///
/// A class to subclass rather than a protocol so that a connection's reference to it takes 8 bytes, not a
/// 16-byte existential (docs/benchmarks.md, "Idle memory"). Connections hold it strongly until they close (no weak
/// reference: see `Connection.owner`).
class ConnectionOwner {
    func connectionClosed(_ connection: Connection) {}
}
