import CourtsideJournal
import CourtsideModel
import CourtsideRedisJournal
import CourtsideTestSupport
import Dispatch
import Synchronization
import Testing

/// Courts in Redis (docs/redis.md, "Courts"): a save is stored only over the version it started from.
@Suite(
    "Redis court store", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct RedisCourtStoreTests {
    /// Starts a call and waits (bounded) for the answer it passes its completion.
    func answer<Answer: Sendable>(_ call: (@escaping @Sendable (Answer) -> Void) -> Void) throws -> Answer {
        let answer = Mutex<Answer?>(nil)
        let done = DispatchSemaphore(value: 0)
        call { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + .seconds(10)) == .success, "the save was not answered")
        return try #require(answer.withLock { $0 })
    }

    /// A court store on a journal of a fresh Redis: keep the server alive and close the journal after.
    static func freshStore() throws -> (RedisServer, RedisJournal, RedisCourtStore) {
        let redis = try RedisServer()
        let journal = try JournalHarness.openRedis(redis)
        return (redis, journal, RedisCourtStore(journal: journal))
    }

    func save(_ store: RedisCourtStore, _ court: Court, over version: Int, limit: Int = 64) throws
        -> Result<Int, CourtStoreError>
    {
        try answer { store.save(court, over: version, limit: limit, completion: $0) }
    }

    @Test("a save over a stale version is refused with what is stored; a new court past the limit is refused")
    func compareAndSet() throws {
        let (redis, journal, store) = try Self.freshStore()
        defer { withExtendedLifetime(redis) { journal.close() } }
        let park = try Court(id: CourtID("court-1"), name: "Park", joining: .admin, displayKeySHA256: nil)
        #expect(try save(store, park, over: 0) == .success(1))
        var renamed = park
        try renamed.enqueue(QueuedTeam(name: "Owls", players: ["A", "B", "C"]))
        #expect(try save(store, renamed, over: 1) == .success(2))
        // A node that still holds version 1 (it missed the change) is told what is stored instead.
        #expect(try save(store, park, over: 1) == .failure(.conflict(current: StoredCourt(court: renamed, version: 2))))
        #expect(try save(store, park, over: 0) == .failure(.conflict(current: StoredCourt(court: renamed, version: 2))))
        let hall = try Court(id: CourtID("court-2"), name: "Hall", joining: .admin, displayKeySHA256: nil)
        #expect(try save(store, hall, over: 0, limit: 1) == .failure(.full(limit: 1)))
        #expect(try store.loadStoredCourts() == [StoredCourt(court: renamed, version: 2)])
    }

    func saveRelayed(_ store: RedisCourtStore, _ courts: [Court], limit: Int = 256) throws
        -> Result<[StoredCourt?], CourtStoreError>
    {
        try answer { store.saveRelayed(courts, venue: "Hall 2", limit: limit, completion: $0) }
    }

    @Test(
        "relayed courts: a change takes the next version, the same value keeps it, a new court past the limit is not stored"
    )
    func relayedCourts() throws {
        let (redis, journal, store) = try Self.freshStore()
        defer { withExtendedLifetime(redis) { journal.close() } }
        let one = try Court(id: CourtID("vk3p9x2ab.court-1"), name: "One", joining: .admin, displayKeySHA256: nil)
        let two = try Court(id: CourtID("vk3p9x2ab.court-2"), name: "Two", joining: .admin, displayKeySHA256: nil)
        func stored(_ court: Court, _ version: Int) -> StoredCourt {
            StoredCourt(court: court, version: version, relayedFrom: "Hall 2")
        }
        #expect(try saveRelayed(store, [one]) == .success([stored(one, 1)]))
        var changed = one
        try changed.enqueue(QueuedTeam(name: "Owls", players: ["A", "B", "C"]))
        // The venue resends every court: the unchanged one keeps its version, the new one past the limit is refused.
        #expect(try saveRelayed(store, [changed, two], limit: 1) == .success([stored(changed, 2), nil]))
        #expect(try saveRelayed(store, [changed]) == .success([stored(changed, 2)]))
        let loaded = try store.loadRelayedCourts()
        #expect(loaded.courts == [stored(changed, 2)])
        #expect(loaded.refused.isEmpty)
        // Relayed courts are not the node's own.
        #expect(try store.loadStoredCourts().isEmpty)
    }
}
