import CourtsideViewModels
import Foundation

/// A webhook subscription as stored (`SQLiteWebhookStore` keeps this JSON) and as `GET` shows it (without the
/// secret, which only the creation's answer carries).
struct Webhook: Codable, Sendable, Hashable {
    enum State: String, Codable, Sendable, Hashable {
        /// Delivering.
        case active
        /// Stopped by an administrator (`PATCH {"state":"paused"}`); events wait in the journal.
        case paused
        /// Failures lasted past the backoff's limit; an administrator resumes it with `PATCH {"state":"active"}`.
        case failing
    }

    var id: String
    var url: String
    /// The event types delivered, in `WebhookEventType` order.
    var events: [String]
    /// The games delivered, or nil for every game (`"games":"*"`).
    var games: [String]?
    /// The signing secret, `whsec_…`.
    var secret: String
    var state: State
    var createdAtMs: Int64
    /// Why the webhook is failing (the last attempt's error), when it is.
    var failure: String?

    /// Whether `type` is delivered.
    func delivers(_ type: WebhookEventType) -> Bool { events.contains(type.rawValue) }

    /// Whether events of `game` are delivered.
    func covers(game: String) -> Bool { games?.contains(game) ?? true }

    /// The public form (no secret).
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "url": .string(url), "events": .array(events.map { .string($0) }),
            "games": games.map { .array($0.map { .string($0) }) } ?? "*", "state": .string(state.rawValue),
            "createdAt": .number(Double(createdAtMs)),
        ]
        if let failure { object["failure"] = .string(failure) }
        return .object(object)
    }

    /// The stored form.
    var record: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Strings, integers and an enum: JSONEncoder cannot fail on them.
        guard let data = try? encoder.encode(self) else { preconditionFailure("Invalid state: webhook \(id)") }
        return String(decoding: data, as: UTF8.self)
    }

    init(
        id: String, url: String, events: [String], games: [String]?, secret: String, state: State,
        createdAtMs: Int64, failure: String? = nil
    ) {
        self.id = id
        self.url = url
        self.events = events
        self.games = games
        self.secret = secret
        self.state = state
        self.createdAtMs = createdAtMs
        self.failure = failure
    }

    init(record: String) throws {
        self = try JSONDecoder().decode(Webhook.self, from: Data(record.utf8))
    }
}

/// The members of a `POST` or `PATCH` body, checked: every member present is valid.
struct WebhookFields: Sendable, Hashable {
    /// The most games one webhook may name.
    static let maxGames = 1_000

    var url: WebhookURL?
    var events: [String]?
    /// `.some(nil)` is `"*"`.
    var games: [String]??
    var secret: WebhookSignature?
    var state: Webhook.State?

    init(parsing body: [UInt8], allowsState: Bool) throws(WebhookRequestError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .badJSON("\(error)")
        }
        guard let object = json.objectValue else { throw .badJSON("expected an object") }
        let known: Set<String> =
            allowsState ? ["url", "events", "games", "secret", "state"] : ["url", "events", "games", "secret"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidField(unknown, "is not a member here (expected \(known.sorted().joined(separator: ", ")))")
        }
        if let url = object["url"] {
            guard let text = url.stringValue else { throw .invalidField("url", "must be a string") }
            self.url = try WebhookURL(text)
        }
        if let events = object["events"] {
            let names = WebhookEventType.allCases.map(\.rawValue)
            guard let list = events.arrayValue, !list.isEmpty else {
                throw .invalidField("events", "must be a non-empty list of \(names.joined(separator: ", "))")
            }
            var chosen = Set<String>()
            for item in list {
                guard let name = item.stringValue, names.contains(name) else {
                    throw .invalidField("events", "\(item) is not one of \(names.joined(separator: ", "))")
                }
                chosen.insert(name)
            }
            self.events = names.filter(chosen.contains)
        }
        if let games = object["games"] {
            if games.stringValue == "*" {
                self.games = .some(nil)
            } else if let list = games.arrayValue, !list.isEmpty, list.count <= Self.maxGames {
                var ids: [String] = []
                for item in list {
                    guard let id = item.stringValue, !id.isEmpty, id.utf8.count <= 128 else {
                        throw .invalidField("games", "must hold game ids (strings of 1-128 bytes), not \(item)")
                    }
                    if !ids.contains(id) { ids.append(id) }
                }
                self.games = .some(ids)
            } else {
                throw .invalidField("games", "must be \"*\" or a list of 1 to \(Self.maxGames) game ids")
            }
        }
        if let secret = object["secret"] {
            guard let text = secret.stringValue else { throw .invalidField("secret", "must be a string") }
            self.secret = try WebhookSignature(printed: text)
        }
        if let state = object["state"] {
            guard let text = state.stringValue, let value = Webhook.State(rawValue: text), value != .failing else {
                throw .invalidField("state", "must be active or paused")
            }
            self.state = value
        }
    }
}
