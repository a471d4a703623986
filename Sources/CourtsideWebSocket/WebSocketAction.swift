/// What the owner of a ``WebSocketConnectionStateMachine`` must do, in order.
public enum WebSocketAction: Sendable, Hashable {
    /// Hand a complete message to the application.
    case deliver(WebSocketMessage)
    /// Queue these bytes (one or more whole frames) for writing.
    case write([UInt8])
    /// Flush the queued writes, then close the transport; the connection is finished.
    case closeTransport(WebSocketClosure)
    /// Call ``WebSocketConnectionStateMachine/timerFired(now:)`` at this instant, replacing any earlier-set
    /// timer of this connection. A timer firing early is harmless: the machine reschedules.
    case scheduleTimer(ContinuousClock.Instant)
}

/// Why a connection ended: for logs and metrics.
public enum WebSocketClosure: Sendable, Hashable {
    /// Both sides sent close frames. `peerCode` is nil when the peer's close frame had no body.
    case closeHandshakeCompleted(peerCode: WebSocketCloseCode?, peerReason: String, initiatedByPeer: Bool)
    /// The peer broke the protocol; a close frame with the error's code was queued first.
    case protocolError(WebSocketProtocolError)
    /// We sent a close frame and the peer did not answer within ``WebSocketConnectionStateMachine/Configuration/closeTimeout``.
    case closeTimedOut
    /// Nothing arrived within ``WebSocketConnectionStateMachine/Configuration/pongTimeout`` of an idle ping.
    case peerUnresponsive
    /// The peer closed the transport without a close handshake (code 1006 in RFC 6455 §7.1.5 terms).
    case transportClosedByPeer
}
