import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideTestSupport
import Testing

@testable import CourtsideRedisJournal

/// Venues in Redis (docs/relay.md, "Ids"; docs/redis.md, `courtside:venues`): written once, read back by any node.
@Suite(
    "Redis venue store", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct RedisVenueStoreTests {
    @Test("venues read back in creation order by another store; a taken id and a value of unknown form are refused")
    func roundTrip() throws {
        let redis = try RedisServer()
        let journal = try JournalHarness.openRedis(redis)
        defer { journal.close() }
        let store = RedisVenueStore(journal: journal)
        #expect(try store.loadAll().isEmpty)
        let digest = (0..<32).map { UInt8($0 * 7 % 256) }
        let hall = RelayVenue(
            id: "vhall0002", name: "Hall 2 (north side)", tokenSHA256: digest,
            createdAt: Timestamp(milliseconds: 1_700_000_000_500))
        let gym = RelayVenue(
            id: "vgym00001", name: "Gym", tokenSHA256: digest.reversed(),
            createdAt: Timestamp(milliseconds: 1_700_000_000_000))
        try store.save(hall)
        try store.save(gym)
        // Another node's store sees both, oldest first, with their names' spaces and the whole digest.
        let other = RedisVenueStore(journal: journal)
        #expect(try other.loadAll() == [gym, hall])
        // A taken id is never overwritten.
        let impostor = RelayVenue(
            id: "vhall0002", name: "Other", tokenSHA256: digest, createdAt: Timestamp(milliseconds: 1))
        #expect(throws: JournalError.self) { try store.save(impostor) }
        #expect(try other.loadAll() == [gym, hall])
        // A value this version cannot read is refused naming the venue, not skipped.
        _ = try journal.client.sendAndWait(RESPCommand("HSET", "courtside:venues", "vbad00001", "not a venue"))
        #expect {
            _ = try store.loadAll()
        } throws: { error in
            "\(error)".contains("vbad00001")
        }
    }
}
