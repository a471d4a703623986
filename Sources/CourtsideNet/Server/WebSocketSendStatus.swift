/// What became of a message handed to a `WebSocket` (compare uWebSockets' `SendStatus`), measured against the
/// connection's outbound byte budget (`HTTPServer.Configuration.webSocketSendBudgetBytes`).
public enum WebSocketSendStatus: Sendable, Hashable {
    /// Queued with the socket writable: it goes out at the end of this loop iteration.
    case sent
    /// Queued behind bytes the peer has not read yet (the kernel's send buffer is full), within the budget.
    case queued
    /// Past the budget. A message of the connection's own (`send(_:)`, `send(preEncodedFrame:)`) is still
    /// queued, since only the application knows whether it may be lost: stop sending and apply a slow-consumer
    /// policy (close, or resync once `webSocketDidDrain` says the backlog is gone). A broadcast frame from a
    /// `BroadcastChannel` is not queued; the channel applies its policy.
    case overBudget
    /// Not queued: the socket is closing (a close frame was sent or received).
    case closed
}
