import CourtsideViewModels

/// The kinds of event a webhook subscribes to. Each journal event of a game is one webhook event (its sequence in
/// the `webhook-id`), and a game's creation is the event of sequence 0.
enum WebhookEventType: String, CaseIterable, Sendable, Hashable {
    case gameCreated = "game.created"
    /// Anything the scorer recorded that is not one of the kinds below: moves, clock, fouls, undo, edits…
    case play
    /// The game clock reached the end of a period, or the scorer ended it by hand.
    case periodEnded = "period.ended"
    /// The scorer declared the game final.
    case gameFinal = "game.final"
    /// An administrator reopened the locked game.
    case gameReopened = "game.reopened"

    /// The webhook event of a stored game event (`GameEvent`'s JSON `type`).
    init(journalType: String) {
        switch journalType {
        case "timeLimitReached", "endPeriod": self = .periodEnded
        case "final": self = .gameFinal
        case "reopened": self = .gameReopened
        default: self = .play
        }
    }
}

/// One event on its way to a webhook: the id receivers dedupe by, and the signed JSON body.
struct WebhookMessage: Sendable, Hashable {
    let game: String
    let sequence: Int
    let type: WebhookEventType
    /// `{game}:{seq}:{type}`: the same for every attempt and replay of this event (Standard Webhooks "webhook-id").
    var id: String { "\(game):\(sequence):\(type.rawValue)" }
    /// `{"type":…,"timestamp":…,"data":{…}}`, the payload structure the specification recommends.
    let body: [UInt8]

    /// The game's creation (sequence 0).
    static func created(game: String, atMs: Int64) -> WebhookMessage {
        let data: JSONValue = ["game": .string(game), "seq": 0, "createdAt": .number(Double(atMs))]
        return WebhookMessage(
            game: game, sequence: 0, type: .gameCreated,
            body: envelope(.gameCreated, atMs: atMs, data: data))
    }

    /// A stored event; `json` is its `GameEvent` JSON, sent as `data.event`.
    static func event(game: String, sequence: Int, atMs: Int64, json: String) -> WebhookMessage {
        let event = (try? JSONValue(parsing: json)) ?? .string(json)
        let type = WebhookEventType(journalType: event["type"]?.stringValue ?? "")
        let data: JSONValue = ["game": .string(game), "seq": .int(sequence), "event": event]
        return WebhookMessage(
            game: game, sequence: sequence, type: type, body: envelope(type, atMs: atMs, data: data))
    }

    private static func envelope(_ type: WebhookEventType, atMs: Int64, data: JSONValue) -> [UInt8] {
        JSONValue.object([
            "type": .string(type.rawValue), "timestamp": .string(Self.iso8601(atMs)), "data": data,
        ]).canonicalBytes
    }

    /// RFC 3339 UTC with milliseconds, from Unix milliseconds (the specification's `timestamp` member).
    static func iso8601(_ ms: Int64) -> String {
        LogEntry.timestamp(Double(ms) / 1000)
    }
}
