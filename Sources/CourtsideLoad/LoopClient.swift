/// A client state machine that ``ClientLoop`` drives: the echo ``LoadClient`` and the fan-out
/// ``FanoutSubscriber``. It never touches a socket; the loop feeds it socket events and performs what it asks.
protocol LoopClient {
    /// What the client asks for; ``socketRequest(for:live:tally:)`` says what of it concerns the socket.
    associatedtype Action
    /// What the mode counts: filled by reads and by actions, confined to the loop like the clients.
    associatedtype Tally

    var isFinished: Bool { get }

    /// The TCP connection is established: start the upgrade (RFC 6455 §4.1).
    mutating func connected(target: LoadTarget) -> [Action]
    /// Bytes arrived on the socket.
    mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer, now: UInt64, tally: inout Tally) -> [Action]
    /// The connection ended: `code` is the errno, nil at end of stream.
    mutating func connectionEnded(errno code: Int32?) -> [Action]
    /// A deadline of the loop passed before the client finished.
    mutating func timedOut() -> [Action]

    /// Counts `action` into `tally` and says what the loop must do with the socket, if anything. `live` is
    /// true when the client's socket is open and upgraded as the action arrives.
    static func socketRequest(for action: Action, live: Bool, tally: inout Tally) -> LoopSocketRequest?
}

/// The part of a client's action that the loop performs on the socket.
enum LoopSocketRequest {
    case write([UInt8])
    /// The handshake completed: the client leaves the connect batch.
    case upgraded
    /// The client is finished: close its socket.
    case close
}
