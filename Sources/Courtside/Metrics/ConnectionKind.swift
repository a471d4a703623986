/// The kinds of long-lived connection `/metrics` counts separately.
public enum ConnectionKind: String, Sendable, CaseIterable {
    /// `WS /ws/games/{id}`.
    case spectator
    /// `WS /ws/games/{id}/scorer`.
    case scorer
    /// `WS /ws/games`.
    case lobby
    /// `WS /ws/courts/{id}`.
    case court
    /// `GET /api/games/{id}/events`.
    case eventStream = "event_stream"
}
