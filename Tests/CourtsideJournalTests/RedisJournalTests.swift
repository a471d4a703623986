import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRedis
import CourtsideRedisClient
import CourtsideRedisJournal
import CourtsideTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// What only the Redis journal has: several writers on one log, lost replies, and a Redis that dies.
@Suite(
    "Redis journal", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct RedisJournalTests {
    /// Submits `write` and waits for its completion, returning the result and how long it took; nil if it did
    /// not complete within `limit` (a hang).
    func timed(_ journal: any GameJournal, _ write: JournalWrite, limit: Duration = .seconds(10))
        -> (Result<Void, JournalError>, Duration)?
    {
        let result = Mutex<Result<Void, JournalError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        journal.submit(write) { value in
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + .milliseconds(Int(limit / .milliseconds(1)))) == .success,
            let value = result.withLock({ $0 })
        else { return nil }
        return (value, ContinuousClock.now - start)
    }

    @Test("two nodes append the same sequence: one wins, the other gets the expected number and can catch up")
    func sequenceConflict() throws {
        let redis = try RedisServer()
        let nodeA = try JournalHarness.openRedis(redis)
        let nodeB = try JournalHarness.openRedis(redis)
        defer {
            nodeA.close()
            nodeB.close()
        }
        try nodeA.createGame(makeRecord(makeSetup()))
        try nodeA.append(moves(1...1), toGame: "g1")
        // B still believes the game has no events; it decided its own event 1.
        let mine = [JournaledEvent(moveEvent(sequence: 1, commandID: "b-1"), presentationSequence: 1)]
        let conflict = journalError { () throws(JournalError) in try nodeB.append(mine, toGame: "g1") }
        #expect(conflict == .unexpectedSequence("g1", expected: 2, got: 1))
        // B reads the log, applies its command after A's, and appends with the next number.
        let loaded = try #require(try nodeB.loadGames().first)
        #expect(loaded.events == moves(1...1))
        let next = [JournaledEvent(moveEvent(sequence: 2, commandID: "b-1"), presentationSequence: 2)]
        try nodeB.append(next, toGame: "g1")
        #expect(try nodeA.loadGames().first?.events == moves(1...1) + next)
    }

    @Test("a byte-for-byte retry of a stored write is answered as the first time and stored once")
    func exactRetryIsIdempotent() throws {
        let harness = try JournalHarness(.redis)
        let record = makeRecord(makeSetup())
        try harness.journal.createGame(record)
        try harness.journal.createGame(record)
        try harness.journal.append(moves(1...3), toGame: "g1")
        try harness.journal.append(moves(1...3), toGame: "g1")
        // Not a retry: other content under a stored number, or a stored command id under a new number.
        let changed = journalError { () throws(JournalError) in
            try harness.journal.createGame(makeRecord(makeSetup(), createdAt: 1))
        }
        #expect(changed == .duplicateGame("g1"))
        let reused = [JournaledEvent(moveEvent(sequence: 4, commandID: "c2"), presentationSequence: 4)]
        let error = journalError { () throws(JournalError) in try harness.journal.append(reused, toGame: "g1") }
        #expect(error == .duplicateCommandID("g1", "c2"))
        let loaded = try harness.journal.loadGames()
        #expect(loaded.map(\.id) == ["g1"])
        #expect(loaded[0].events == moves(1...3))
    }

    @Test("only a whole stored batch is a retry: a part of one (its first event, its last) is refused like a conflict")
    func partOfABatchIsAConflict() throws {
        let harness = try JournalHarness(.redis)
        try harness.journal.createGame(makeRecord(makeSetup()))
        // Another node stored the time limit and a late move as one batch under one number.
        let stored = [moveEvent(sequence: 1, at: 5), moveEvent(sequence: 2, at: 5)].map {
            JournaledEvent($0, presentationSequence: 1)
        }
        try harness.journal.append(stored, toGame: "g1")
        // This node's own tick is the batch's first event, byte for byte: not a retry of it.
        let prefix = journalError { () throws(JournalError) in
            try harness.journal.append(Array(stored.prefix(1)), toGame: "g1")
        }
        #expect(prefix == .unexpectedSequence("g1", expected: 3, got: 1))
        let suffix = journalError { () throws(JournalError) in
            try harness.journal.append(Array(stored.suffix(1)), toGame: "g1")
        }
        #expect(suffix == .unexpectedSequence("g1", expected: 3, got: 2))
        try harness.journal.append(stored, toGame: "g1")  // the whole batch again: the retry of a lost reply
        let three = [JournaledEvent(moveEvent(sequence: 3, at: 6), presentationSequence: 2)]
        try harness.journal.append(three, toGame: "g1")
        // Two stored batches are not one: together they are no retry either.
        let both = journalError { () throws(JournalError) in try harness.journal.append(stored + three, toGame: "g1") }
        #expect(both == .unexpectedSequence("g1", expected: 4, got: 1))
        #expect(try harness.journal.loadGames()[0].events == stored + three)
    }

    @Test("a node of an older version (its count where the format should be) is refused, nothing stored")
    func olderCallerRefused() throws {
        let harness = try JournalHarness(.redis)
        try harness.journal.createGame(makeRecord(makeSetup()))
        let redis = try #require(harness.redis)
        let client = try RedisClient(url: RedisURL(parsing: redis.url()), loop: JournalKind.redisLoops.loops[0])
        defer { client.close() }
        let body = try JournalJSON().encode(moveEvent(sequence: 1), game: "g1")
        let old = RESPCommand(
            "FCALL", "courtside_append", 4, "courtside:game:{g1}", "courtside:events:{g1}", "courtside:cids:{g1}",
            "courtside:feed", "g1", 100, "old", 1, 1, 1, "=c1", .string(body))
        do {
            _ = try client.sendAndWait(old)
            Issue.record("a write of an older node was taken")
        } catch {
            #expect("\(error)".contains("UPGRADE"), "\(error)")
        }
        #expect(try harness.journal.loadGames()[0].events.isEmpty)
    }

    @Test("every creation and appended batch is copied to the shared feed, in order, whole, with its game and JSON")
    func feedCopies() throws {
        let harness = try JournalHarness(.redis)
        try harness.journal.createGame(makeRecord(makeSetup("a")))
        try harness.journal.createGame(makeRecord(makeSetup("b")))
        try harness.journal.append(moves(1...2), toGame: "a")
        try harness.journal.append(moves(1...1), toGame: "b")
        try harness.journal.append(moves(3...3), toGame: "a")
        let redis = try #require(harness.redis)
        let client = try RedisClient(url: RedisURL(parsing: redis.url()), loop: JournalKind.redisLoops.loops[0])
        defer { client.close() }
        let feed = try client.sendAndWait(RESPCommand("XRANGE", "courtside:feed", "-", "+"))
        let entries = try #require(feed.elements).map { entry in entry.elements?[1].elements?.compactMap(\.string) ?? []
        }
        let node = try #require(harness.journal as? RedisJournal).configuration.nodeID
        // A creation is an entry without an event (sequence 0), so other nodes list the game before its first move.
        #expect(
            Array(entries.prefix(2)) == [
                ["g", "a", "s", "0", "p", "0", "n", node], ["g", "b", "s", "0", "p", "0", "n", node],
            ])
        // A batch is one entry: its game, first sequence, node and size, then each event's presentation sequence and
        // JSON, so a reader gets all of it or none.
        #expect(
            entries.dropFirst(2).map { Array($0.prefix(8)) } == [
                ["g", "a", "s", "1", "n", node, "k", "2"], ["g", "b", "s", "1", "n", node, "k", "1"],
                ["g", "a", "s", "3", "n", node, "k", "1"],
            ])
        #expect(entries.map(\.count) == [8, 8, 16, 12, 12])
        #expect([entries[2][8], entries[2][9], entries[2][12], entries[2][13]] == ["p", "1", "p", "2"])
        let second = try JSONDecoder().decode(GameEvent.self, from: Data(entries[2][15].utf8))
        #expect(second == moveEvent(sequence: 2, at: 2))
        let event = try JSONDecoder().decode(GameEvent.self, from: Data(entries[4][11].utf8))
        #expect(event == moveEvent(sequence: 3, at: 3))
    }

    @Test("a write finds the function library gone (FUNCTION FLUSH): it is loaded again and the write goes through")
    func libraryReloaded() throws {
        let harness = try JournalHarness(.redis)
        try harness.journal.createGame(makeRecord(makeSetup()))
        let redis = try #require(harness.redis)
        let client = try RedisClient(url: RedisURL(parsing: redis.url()), loop: JournalKind.redisLoops.loops[0])
        defer { client.close() }
        #expect(try client.sendAndWait(RESPCommand("FUNCTION", "FLUSH")) == .simpleString("OK"))
        try harness.journal.append(moves(1...2), toGame: "g1")
        #expect(try harness.journal.loadGames()[0].events == moves(1...2))
    }

    @Test("Redis stops answering (CLIENT PAUSE): a write fails by its deadline; the same write retried is stored once")
    func pausedRedis() throws {
        let redis = try RedisServer()
        // A second per request: on a loaded machine the set-up and the final read take longer than half of one.
        let journal = try JournalHarness.openRedis(redis) { $0.client.requestTimeout = .seconds(1) }
        defer { journal.close() }
        try journal.createGame(makeRecord(makeSetup()))
        let probe = try RedisClient(url: RedisURL(parsing: redis.url()), loop: JournalKind.redisLoops.loops[0])
        defer { probe.close() }
        #expect(try probe.sendAndWait(RESPCommand("CLIENT", "PAUSE", 3000, "ALL")) == .simpleString("OK"))
        let write = JournalWrite.appendEvents(moves(1...1), toGame: "g1")
        let outcome = try #require(timed(journal, write), "the write hung")
        guard case .failure(.unavailable) = outcome.0 else {
            Issue.record("expected .unavailable, got \(outcome.0)")
            return
        }
        #expect(outcome.1 < .seconds(2), "failed after \(outcome.1)")
        // The owner retries the very same write until Redis answers: stored once, whether or not the first ran.
        let deadline = ContinuousClock.now + .seconds(10)
        var stored = false
        while !stored && ContinuousClock.now < deadline {
            if case .success = timed(journal, write)?.0 { stored = true }
        }
        #expect(stored)
        #expect(try journal.loadGames()[0].events == moves(1...1))
    }

    @Test("Redis down: a write completes with .unavailable within its deadline, never hangs")
    func downFailsFast() throws {
        let redis = try RedisServer()
        let journal = try JournalHarness.openRedis(redis) { $0.client.requestTimeout = .seconds(1) }
        defer { journal.close() }
        try journal.createGame(makeRecord(makeSetup()))
        redis.kill9()
        let outcome = try #require(timed(journal, .appendEvents(moves(1...1), toGame: "g1")), "the write hung")
        guard case .failure(.unavailable) = outcome.0 else {
            Issue.record("expected .unavailable, got \(outcome.0)")
            return
        }
        #expect(outcome.1 < .seconds(3), "failed after \(outcome.1)")
    }

    @Test("kill -9 of Redis mid-stream, then restart: nothing acked is lost, no write hangs, retries store once")
    func killNine() throws {
        let redis = try RedisServer()
        var journal = try JournalHarness.openRedis(redis) { $0.client.requestTimeout = .seconds(1) }
        try journal.createGame(makeRecord(makeSetup()))
        var acked = 0
        var failures: [Duration] = []
        var killed = false
        var restarted = false
        let stop = ContinuousClock.now + .seconds(60)
        while acked < 150 && ContinuousClock.now < stop {
            let next = acked + 1
            if next == 60 && !killed {
                // Kill while a write is in flight: submit, then kill at once.
                let result = Mutex<Result<Void, JournalError>?>(nil)
                let done = DispatchSemaphore(value: 0)
                journal.append(moves(next...next), toGame: "g1") { value in
                    result.withLock { $0 = value }
                    done.signal()
                }
                redis.kill9()
                killed = true
                #expect(done.wait(timeout: .now() + 10) == .success, "the in-flight write hung")
                if case .success = result.withLock({ $0 }) { acked = next }
                continue
            }
            // A failed write is retried with the very same batch: stored once whatever happened to the first try.
            let outcome = try #require(
                timed(journal, .appendEvents(moves(next...next), toGame: "g1")), "hung at \(next)")
            switch outcome.0 {
            case .success:
                acked = next
            case .failure(let error):
                #expect(killed, "failed before the kill: \(error)")
                failures.append(outcome.1)
                if failures.count == 3 && !restarted {
                    try redis.restart()
                    restarted = true
                }
            }
        }
        #expect(acked == 150, "the journal recovered after the restart")
        #expect(failures.count >= 3)
        #expect(failures.allSatisfy { $0 < .seconds(3) }, "each failure within a few seconds: \(failures)")
        journal.close()
        // A fresh journal (a restarted server) reads exactly the acked events, each once.
        journal = try JournalHarness.openRedis(redis)
        defer { journal.close() }
        let events = try #require(try journal.loadGames().first).events
        #expect(events == moves(1...acked))
    }
}
