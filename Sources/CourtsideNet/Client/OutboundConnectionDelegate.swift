/// The protocol client above an `OutboundConnection` (a Redis connection). Loop-confined: every call runs on the
/// connection's loop.
public protocol OutboundConnectionDelegate: AnyObject {
    /// The TCP connection is established: writes may begin.
    func connectionEstablished(_ connection: OutboundConnection, context: LoopContext)
    /// Bytes arrived. They live in the loop's shared read buffer: copy what must outlive the call.
    func connection(_ connection: OutboundConnection, received bytes: UnsafeRawBufferPointer, context: LoopContext)
    /// The connection failed or the peer closed it (never called for the owner's own `close()`). Called once.
    func connectionClosed(_ connection: OutboundConnection, error: NetError, context: LoopContext)
}
