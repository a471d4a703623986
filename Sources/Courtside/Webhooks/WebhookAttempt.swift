import CourtsideViewModels

/// One delivery attempt as `GET /api/webhooks/{id}/deliveries` lists it.
struct WebhookAttempt: Sendable, Hashable {
    /// The event's `webhook-id`.
    let messageID: String
    /// 1 for the first attempt of this event, 2 for its first retry…
    let attempt: Int
    /// When the attempt began (Unix ms).
    let atMs: Int64
    /// The receiver's status, when it answered.
    let status: Int?
    let latencyMs: Int64
    /// Why it failed, nil when the receiver acknowledged it (2xx).
    let error: String?

    var json: JSONValue {
        [
            "webhookId": .string(messageID), "attempt": .int(attempt), "at": .number(Double(atMs)),
            "status": status.map { .int($0) } ?? .null, "latencyMs": .number(Double(latencyMs)),
            "ok": .bool(error == nil), "error": error.map { .string($0) } ?? .null,
        ]
    }
}
