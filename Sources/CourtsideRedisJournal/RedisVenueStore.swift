import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideRedisClient

/// The venues of every node of a cluster (docs/relay.md, "Ids"), in the Redis of the first partition: one hash,
/// `courtside:venues`, venue id → `<created-at ms> <token SHA-256 in hex> <name>` (the name last, so its spaces
/// need no escaping). A venue is written once with `HSETNX` (a taken id is refused, never overwritten) and never
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
        for (id, value) in RedisWebhookStore.hash(reply) {
            guard let venue = Self.decode(id: id, value) else {
                throw .storageFailure(reason: "venue \(id) is stored in an unknown form")
            }
            venues.append(venue)
        }
        // Creation order: by the creation instant, then the id (two venues created in one millisecond).
        return venues.sorted { ($0.createdAt.milliseconds, $0.id) < ($1.createdAt.milliseconds, $1.id) }
    }

    public func save(_ venue: RelayVenue) throws(JournalError) {
        let value = "\(venue.createdAt.milliseconds) \(Self.hex(venue.tokenSHA256)) \(venue.name)"
        let reply = try call(RESPCommand("HSETNX", .string(Self.venues), .string(venue.id), .string(value)))
        guard reply.integer == 1 else { throw .storageFailure(reason: "venue id \(venue.id) is taken") }
    }

    /// The journal owns the connection and closes it.
    public func close() {}

    static func decode(id: String, _ value: String) -> RelayVenue? {
        let parts = value.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let milliseconds = Int64(parts[0]), let digest = bytes(hex: parts[1]),
            digest.count == 32, RelayVenue.isValidID(id)
        else { return nil }
        return RelayVenue(
            id: id, name: String(parts[2]), tokenSHA256: digest, createdAt: Timestamp(milliseconds: milliseconds))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func bytes(hex text: Substring) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private func call(_ command: RESPCommand) throws(JournalError) -> RESPValue {
        do throws(RedisError) {
            return try client.sendAndWait(command)
        } catch {
            throw RedisJournal.journalError(error, gameID: nil)
        }
    }
}
