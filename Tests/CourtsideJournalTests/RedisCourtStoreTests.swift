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
    /// Saves and waits (bounded) for the answer.
    func save(_ store: RedisCourtStore, _ court: Court, over version: Int, limit: Int = 64) throws
        -> Result<Int, CourtStoreError>
    {
        let answer = Mutex<Result<Int, CourtStoreError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        store.save(court, over: version, limit: limit) { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + .seconds(10)) == .success, "the save was not answered")
        return try #require(answer.withLock { $0 })
    }

    @Test("a save over a stale version is refused with what is stored; a new court past the limit is refused")
    func compareAndSet() throws {
        let redis = try RedisServer()
        let journal = try JournalHarness.openRedis(redis)
        defer { journal.close() }
        let store = RedisCourtStore(journal: journal)
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
}
