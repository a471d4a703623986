import CourtsideJournal
import CourtsideRedis
import CourtsideRedisClient

/// The webhooks of every node, in the Redis of the first partition (`RedisWebhookLibrary` names the keys): the
/// records, the cursors per game, the last attempts and a lease per webhook, so that every node sees the same
/// webhooks and exactly one delivers each (docs/webhooks.md, "Several nodes").
///
/// The signing secret is in the record, as in `webhooks.sqlite3`: signing needs the secret itself (HMAC), so it
/// cannot be hashed. Redis guards it as it guards the journal (its password or ACL, `rediss://` on the wire).
///
/// Calls block on the journal's connection (`sendAndWait`): call them from delivery threads or a queue, never a loop.
public final class RedisWebhookStore: WebhookStore {
    static let webhooks = "courtside:webhooks"
    static let order = "courtside:webhook-order"
    static let version = "courtside:webhooks-version"
    static func cursors(_ id: String) -> String { "courtside:webhook-cursors:{\(id)}" }
    static func deliveries(_ id: String) -> String { "courtside:webhook-deliveries:{\(id)}" }
    static func lease(_ id: String) -> String { "courtside:webhook-lease:{\(id)}" }

    private let client: RedisClient
    private static let loadLibrary = RESPCommand(
        "FUNCTION", "LOAD", "REPLACE", .string(RedisWebhookLibrary.source))

    /// Loads the library into `journal`'s Redis (replacing an older version). Blocks: start-up only.
    public init(journal: RedisJournal) throws(JournalError) {
        client = journal.client
        do throws(JournalError) {
            _ = try call(Self.loadLibrary)
            let version = try call(RESPCommand("FCALL", "courtside_webhooks_version", 0))
            guard version.integer == Int64(RedisWebhookLibrary.version) else {
                throw .storageFailure(reason: "the webhook library reports version \(version)")
            }
        } catch .unavailable {
            // The partition is down at start (a node starts without it): the first call after it returns finds the
            // library missing and loads it (`call`).
        }
    }

    public var isShared: Bool { true }

    public func loadAll() throws(JournalError) -> [(id: String, record: String)] {
        let ids = try call(RESPCommand("LRANGE", .string(Self.order), 0, -1)).elements?.compactMap(\.string) ?? []
        guard !ids.isEmpty else { return [] }
        let records = try call(RESPCommand("HMGET", [.string(Self.webhooks)] + ids.map { .string($0) }))
        let values = records.elements ?? []
        var rows: [(id: String, record: String)] = []
        for (id, value) in zip(ids, values) {
            // Listed but gone: a delete between the two reads.
            guard let record = value.string else { continue }
            rows.append((id, record))
        }
        return rows
    }

    public func save(id: String, record: String, creating: Bool, cursors: [String: Int]) throws(JournalError) {
        var arguments: [RESPArgument] = [
            "courtside_webhook_save", 4, .string(Self.webhooks), .string(Self.order), .string(Self.cursors(id)),
            .string(Self.version), .string(id), .string(record), creating ? "1" : "0",
        ]
        for (game, seq) in cursors.sorted(by: { $0.key < $1.key }) { arguments += [.string(game), .integer(seq)] }
        _ = try call(RESPCommand("FCALL", arguments))
    }

    public func delete(id: String) throws(JournalError) {
        _ = try call(
            RESPCommand(
                "FCALL", "courtside_webhook_delete", 6, .string(Self.webhooks), .string(Self.order),
                .string(Self.cursors(id)), .string(Self.deliveries(id)), .string(Self.lease(id)), .string(Self.version),
                .string(id)))
    }

    public func cursors(ofWebhook id: String) throws(JournalError) -> [String: Int] {
        var cursors: [String: Int] = [:]
        for (game, value) in try Self.hash(call(RESPCommand("HGETALL", .string(Self.cursors(id))))) {
            guard let seq = Int(value) else {
                throw .storageFailure(reason: "webhook \(id)'s cursor for \(game) is \(value), not a number")
            }
            cursors[game] = seq
        }
        return cursors
    }

    public func setCursor(webhook id: String, game: String, seq: Int) throws(JournalError) {
        _ = try call(
            RESPCommand(
                "FCALL", "courtside_webhook_set_cursor", 2, .string(Self.cursors(id)), .string(Self.version),
                .string(game), .integer(seq)))
    }

    public func advanceCursor(webhook id: String, game: String, from expected: Int?, to next: Int, token: String)
        throws(JournalError) -> WebhookCursorAdvance
    {
        let reply = try call(
            RESPCommand(
                "FCALL", "courtside_webhook_advance", 2, .string(Self.lease(id)), .string(Self.cursors(id)),
                .string(token), .string(game), .string(expected.map(String.init) ?? ""), .integer(next)))
        switch reply.string {
        case "OK": return .advanced
        case "LEASE": return .leaseLost
        case "MOVED": return .moved
        default: throw .storageFailure(reason: "courtside_webhook_advance answered \(reply)")
        }
    }

    /// The journal library's `courtside_lease` (`SET NX PX`, or `PEXPIRE` when the token holds it).
    public func lease(webhook id: String, token: String, durationMs: Int) throws(JournalError) -> Bool {
        try call(
            RESPCommand(
                "FCALL", "courtside_lease", 1, .string(Self.lease(id)), .string(token), .integer(durationMs))
        ).integer == 1
    }

    public func release(webhook id: String, token: String) throws(JournalError) {
        _ = try call(RESPCommand("FCALL", "courtside_webhook_release", 1, .string(Self.lease(id)), .string(token)))
    }

    public func recordAttempt(webhook id: String, json: String, keep: Int) throws(JournalError) {
        _ = try call(
            RESPCommand(
                "FCALL", "courtside_webhook_attempt", 2, .string(Self.deliveries(id)), .string(Self.webhooks),
                .string(id), .string(json), .integer(keep)))
    }

    public func attempts(ofWebhook id: String) throws(JournalError) -> [String]? {
        try call(RESPCommand("LRANGE", .string(Self.deliveries(id)), 0, -1)).elements?.compactMap(\.string) ?? []
    }

    public func changeMarker() throws(JournalError) -> String {
        try call(RESPCommand("GET", .string(Self.version))).string ?? "0"
    }

    /// The journal owns the connection and closes it.
    public func close() {}

    /// Sends `command`; when Redis lost the libraries (a restart without persistence, `FUNCTION FLUSH`), the call never
    /// ran: load both (this one and the journal's, whose `courtside_lease` the leases use) and send it once more.
    private func call(_ command: RESPCommand) throws(JournalError) -> RESPValue {
        do throws(RedisError) {
            do throws(RedisError) {
                return try client.sendAndWait(command)
            } catch .server(let message) where message.hasPrefix(RedisJournal.functionMissing) {
                _ = try client.sendAndWait(RedisJournal.loadLibrary)
                _ = try client.sendAndWait(Self.loadLibrary)
                return try client.sendAndWait(command)
            }
        } catch {
            throw RedisJournal.journalError(error, gameID: nil)
        }
    }

    /// A hash reply (a RESP3 map, or a RESP2 flat array) as field → text.
    static func hash(_ reply: RESPValue) -> [String: String] {
        hashBytes(reply).mapValues { String(decoding: $0, as: UTF8.self) }
    }

    /// A hash reply as field → bytes (binary values, such as a token's digest).
    static func hashBytes(_ reply: RESPValue) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        switch reply {
        case .map(let entries):
            for entry in entries {
                guard let key = entry.key.string, let value = entry.value.bytes else { continue }
                result[key] = value
            }
        default:
            let flat = reply.elements ?? []
            for index in stride(from: 0, to: flat.count - 1, by: 2) {
                guard let key = flat[index].string, let value = flat[index + 1].bytes else { continue }
                result[key] = value
            }
        }
        return result
    }
}
