import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideRedisClient

/// The venues of every node of a cluster (docs/relay.md, "Ids"), in the Redis of the first partition: one hash,
/// `courtside:venues`, venue id → the token's SHA-256 (32 bytes), then `<created-at ms> <name>` in UTF-8 (the name
/// last, so its spaces need no escaping). A venue is written once with `HSETNX` (a taken id is refused, never overwritten) and never
/// changed, so no function library is needed: every node reads the hash again when a token is not in its memory.
///
/// Calls block on the journal's connection (`sendAndWait`): call them from a queue, never a loop.
public final class RedisVenueStore: VenueStore {
    static let venues = "courtside:venues"

    private let client: RedisClient

    public init(journal: RedisJournal) {
        client = journal.client
    }

    public var isShared: Bool { true }

    public func loadAll() throws(JournalError) -> [RelayVenue] {
        let reply = try call(RESPCommand("HGETALL", .string(Self.venues)))
        var venues: [RelayVenue] = []
        for (id, value) in RedisWebhookStore.hashBytes(reply) {
            guard let venue = Self.decode(id: id, value) else {
                throw .storageFailure(reason: "venue \(id) is stored in an unknown form")
            }
            venues.append(venue)
        }
        // Creation order: by the creation instant, then the id (two venues created in one millisecond).
        return venues.sorted { ($0.createdAt.milliseconds, $0.id) < ($1.createdAt.milliseconds, $1.id) }
    }

    public func save(_ venue: RelayVenue) throws(JournalError) {
        let value = venue.tokenSHA256 + Array("\(venue.createdAt.milliseconds) \(venue.name)".utf8)
        let reply = try call(RESPCommand("HSETNX", .string(Self.venues), .string(venue.id), .bytes(value)))
        guard reply.integer == 1 else { throw .storageFailure(reason: "venue id \(venue.id) is taken") }
    }

    /// The journal owns the connection and closes it.
    public func close() {}

    static func decode(id: String, _ value: [UInt8]) -> RelayVenue? {
        guard value.count > 32, RelayVenue.isValidID(id) else { return nil }
        let text = String(decoding: value.dropFirst(32), as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let milliseconds = Int64(parts[0]) else { return nil }
        return RelayVenue(
            id: id, name: String(parts[1]), tokenSHA256: Array(value.prefix(32)),
            createdAt: Timestamp(milliseconds: milliseconds))
    }

    private func call(_ command: RESPCommand) throws(JournalError) -> RESPValue {
        do throws(RedisError) {
            return try client.sendAndWait(command)
        } catch {
            throw RedisJournal.journalError(error, gameID: nil)
        }
    }
}
