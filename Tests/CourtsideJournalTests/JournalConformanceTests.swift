import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import Testing

/// What every `GameJournal` must do, run against SQLite and the in-memory journal alike.
@Suite("GameJournal conformance", .ownThread)
struct JournalConformanceTests {
    @Test(
        "random games round-trip: the loaded events replay to the model's games, before and after a restart",
        arguments: JournalKind.allCases, [1, 0xC0FFEE] as [UInt64])
    func randomGamesRoundTrip(kind: JournalKind, seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let harness = try JournalHarness(kind)
        let played = (0..<12).map { PlayedGame.random(id: GameID("game-\($0)"), using: &rng) }
        for (index, game) in played.enumerated() {
            try harness.journal.createGame(
                makeRecord(game.game.setup, createdAt: Int64(index), metadata: ["creator": "test \(index)"]))
        }
        // Interleave the games' batches, as several owners would.
        var cursors = Array(repeating: 0, count: played.count)
        while let index = played.indices.filter({ cursors[$0] < played[$0].batches.count }).randomElement(using: &rng) {
            try harness.journal.append(played[index].batches[cursors[index]], toGame: played[index].game.id)
            cursors[index] += 1
        }
        for round in ["before restart", "after restart"] {
            let loaded = try harness.journal.loadGames()
            #expect(loaded.map(\.id) == played.map(\.game.id), "creation order, \(round)")
            for (stored, original) in zip(loaded, played) {
                #expect(try stored.replayed() == original.game, "\(stored.id) \(round)")
                #expect(stored.events == original.journaledEvents, "\(stored.id) \(round)")
                #expect(stored.lastPresentationSequence == (original.batches.last?.last?.presentationSequence ?? 0))
                #expect(stored.record.metadata["creator"] != nil)
            }
            try harness.reopen()
        }
    }

    @Test(
        "a restart restores setup, token hash, creation time, metadata, archive flag and sequences",
        arguments: JournalKind.allCases)
    func reopenRestoresEverything(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        let live = makeRecord(makeSetup("live"), createdAt: 5, metadata: ["a": "1", "b": "2"])
        let archived = makeRecord(makeSetup("old", rules: .fiba3x3), createdAt: 7)
        try harness.journal.createGame(live)
        try harness.journal.createGame(archived)
        try harness.journal.append(moves(1...3), toGame: "live")
        try harness.journal.append(moves(1...1), toGame: "old")
        try harness.journal.archiveGame("old", at: at(99))
        let before = try harness.journal.loadGames()
        try harness.reopen()
        let after = try harness.journal.loadGames()
        #expect(after == before)
        #expect(after.map(\.record) == [live, archived])
        #expect(after.map(\.isArchived) == [false, true])
        #expect(after[1].archivedAt == at(99))
        #expect(after[0].lastEventSequence == 3)
        #expect(after[0].lastPresentationSequence == 3)
        // Appending goes on from where it stopped.
        try harness.journal.append(moves(4...5), toGame: "live")
        #expect(try harness.journal.loadGames()[0].lastEventSequence == 5)
    }

    @Test(
        "a gap in event sequences is refused with the expected number, and nothing is written",
        arguments: JournalKind.allCases)
    func gapRefused(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        try harness.journal.createGame(makeRecord(makeSetup()))
        try harness.journal.append(moves(1...2), toGame: "g1")
        let error = journalError { () throws(JournalError) in try harness.journal.append(moves(4...4), toGame: "g1") }
        #expect(error == .unexpectedSequence("g1", expected: 3, got: 4))
        let first = journalError { () throws(JournalError) in try harness.journal.append(moves(2...3), toGame: "g1") }
        #expect(first == .unexpectedSequence("g1", expected: 3, got: 2))
        try harness.reopen()
        #expect(try harness.journal.loadGames()[0].events == moves(1...2))
    }

    @Test("a duplicate event sequence is refused, and nothing is written", arguments: JournalKind.allCases)
    func duplicateRefused(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        try harness.journal.createGame(makeRecord(makeSetup()))
        try harness.journal.append(moves(1...1), toGame: "g1")
        let again = [JournaledEvent(moveEvent(sequence: 1, commandID: "other"), presentationSequence: 1)]
        let error = journalError { () throws(JournalError) in try harness.journal.append(again, toGame: "g1") }
        #expect(error == .unexpectedSequence("g1", expected: 2, got: 1))
        #expect(try harness.journal.loadGames()[0].events == moves(1...1))
    }

    @Test("a batch is atomic: one bad event and none of the batch is written", arguments: JournalKind.allCases)
    func batchIsAtomic(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        try harness.journal.createGame(makeRecord(makeSetup()))
        try harness.journal.append(moves(1...1), toGame: "g1")
        let gap = moves(2...3) + moves(5...5)
        let gapError = journalError { () throws(JournalError) in try harness.journal.append(gap, toGame: "g1") }
        #expect(gapError == .unexpectedSequence("g1", expected: 4, got: 5))
        let reused = moves(2...3) + [JournaledEvent(moveEvent(sequence: 4, commandID: "c2"), presentationSequence: 4)]
        let reusedError = journalError { () throws(JournalError) in try harness.journal.append(reused, toGame: "g1") }
        #expect(reusedError == .duplicateCommandID("g1", "c2"))
        try harness.reopen()
        #expect(try harness.journal.loadGames()[0].events == moves(1...1))
        try harness.journal.append(moves(2...4), toGame: "g1")
        #expect(try harness.journal.loadGames()[0].events == moves(1...4))
    }

    @Test("a command id already recorded for the game is refused in a later batch", arguments: JournalKind.allCases)
    func duplicateCommandIDAcrossBatches(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        try harness.journal.createGame(makeRecord(makeSetup("a")))
        try harness.journal.createGame(makeRecord(makeSetup("b")))
        try harness.journal.append(moves(1...2), toGame: "a")
        let reuse = [JournaledEvent(moveEvent(sequence: 3, commandID: "c1"), presentationSequence: 3)]
        let error = journalError { () throws(JournalError) in try harness.journal.append(reuse, toGame: "a") }
        #expect(error == .duplicateCommandID("a", "c1"))
        // Command ids are per game: another game may use the same one.
        try harness.journal.append(moves(1...1), toGame: "b")
        #expect(try harness.journal.loadGames().map(\.lastEventSequence) == [2, 1])
    }

    @Test("presentation sequences may repeat but never go back", arguments: JournalKind.allCases)
    func presentationSequenceNeverGoesBack(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        try harness.journal.createGame(makeRecord(makeSetup()))
        let shared = [
            JournaledEvent(moveEvent(sequence: 1), presentationSequence: 4),
            JournaledEvent(moveEvent(sequence: 2), presentationSequence: 4),
        ]
        try harness.journal.append(shared, toGame: "g1")
        let back = [JournaledEvent(moveEvent(sequence: 3), presentationSequence: 3)]
        let error = journalError { () throws(JournalError) in try harness.journal.append(back, toGame: "g1") }
        #expect(error == .presentationSequenceWentBack("g1", sequence: 3, previous: 4, got: 3))
        let negative = journalError { () throws(JournalError) in
            try harness.journal.createGame(makeRecord(makeSetup("n")))
            try harness.journal.append([JournaledEvent(moveEvent(sequence: 1), presentationSequence: -1)], toGame: "n")
        }
        #expect(negative == .presentationSequenceWentBack("n", sequence: 1, previous: 0, got: -1))
        #expect(try harness.journal.loadGames()[0].lastPresentationSequence == 4)
    }

    @Test(
        "a presentation watermark survives a restart, only rises, and later events may not go below it",
        arguments: JournalKind.allCases)
    func presentationWatermark(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        try harness.journal.createGame(makeRecord(makeSetup()))
        try harness.journal.append(moves(1...2), toGame: "g1")
        try harness.journal.recordPresentationSequence(10, forGame: "g1")
        try harness.journal.recordPresentationSequence(7, forGame: "g1")
        try harness.reopen()
        let game = try #require(try harness.journal.loadGames().first)
        #expect(game.presentationWatermark == 10)
        #expect(game.lastPresentationSequence == 10)
        let below = [JournaledEvent(moveEvent(sequence: 3), presentationSequence: 9)]
        let error = journalError { () throws(JournalError) in try harness.journal.append(below, toGame: "g1") }
        #expect(error == .presentationSequenceWentBack("g1", sequence: 3, previous: 10, got: 9))
        try harness.journal.append([JournaledEvent(moveEvent(sequence: 3), presentationSequence: 11)], toGame: "g1")
        #expect(try harness.journal.loadGames()[0].lastPresentationSequence == 11)
        let unknown = journalError { () throws(JournalError) in
            try harness.journal.recordPresentationSequence(1, forGame: "nope")
        }
        #expect(unknown == .unknownGame("nope"))
    }

    @Test("archiving persists, keeps the first time, and refuses later events", arguments: JournalKind.allCases)
    func archivePersists(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        try harness.journal.createGame(makeRecord(makeSetup()))
        try harness.journal.append(moves(1...2), toGame: "g1")
        try harness.journal.archiveGame("g1", at: at(10))
        try harness.journal.archiveGame("g1", at: at(20))
        try harness.reopen()
        let game = try #require(try harness.journal.loadGames().first)
        #expect(game.isArchived)
        #expect(game.archivedAt == at(10))
        #expect(game.events == moves(1...2))
        let error = journalError { () throws(JournalError) in try harness.journal.append(moves(3...3), toGame: "g1") }
        #expect(error == .gameArchived("g1"))
    }

    @Test("unknown games, duplicate games and bad token hashes are refused", arguments: JournalKind.allCases)
    func gameLevelRefusals(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        try harness.journal.createGame(makeRecord(makeSetup()))
        let duplicate = journalError { () throws(JournalError) in
            try harness.journal.createGame(makeRecord(makeSetup(), createdAt: 1))
        }
        #expect(duplicate == .duplicateGame("g1"))
        let unknownAppend = journalError { () throws(JournalError) in
            try harness.journal.append(moves(1...1), toGame: "nope")
        }
        #expect(unknownAppend == .unknownGame("nope"))
        let unknownArchive = journalError { () throws(JournalError) in
            try harness.journal.archiveGame("nope", at: at(1))
        }
        #expect(unknownArchive == .unknownGame("nope"))
        let shortHash = GameRecord(setup: makeSetup("h"), scorerTokenSHA256: [1, 2, 3], createdAt: at(0))
        let hashError = journalError { () throws(JournalError) in try harness.journal.createGame(shortHash) }
        #expect(hashError == .invalidScorerTokenHash("h", byteCount: 3))
        try harness.reopen()
        let loaded = try harness.journal.loadGames()
        #expect(loaded.map(\.id) == ["g1"])
        #expect(loaded[0].record.createdAt == at(1_700_000_000_000))
    }

    @Test("after close, writes complete with .closed and loading throws .closed", arguments: JournalKind.allCases)
    func closedJournalRefuses(kind: JournalKind) throws {
        let harness = try JournalHarness(kind)
        try harness.journal.createGame(makeRecord(makeSetup()))
        harness.journal.close()
        harness.journal.close()
        let write = journalError { () throws(JournalError) in try harness.journal.append(moves(1...1), toGame: "g1") }
        #expect(write == .closed)
        let load = journalError { () throws(JournalError) in _ = try harness.journal.loadGames() }
        #expect(load == .closed)
        try harness.reopen()
        #expect(try harness.journal.loadGames().count == 1)
    }
}
