import CourtsideModel
import CourtsideRedisJournal
import Testing

/// `GamePartitions`: the pure mapping from a game id to its Redis partition, and where new games go.
@Suite("Game partitions: ids to partitions")
struct GamePartitionsTests {
    @Test("game-N is partition 0, game-P-N partition P; with one partition every id is partition 0")
    func wellFormedIDs() {
        #expect(GamePartitions.partition(of: "game-1", count: 2) == 0)
        #expect(GamePartitions.partition(of: "game-907", count: 3) == 0)
        #expect(GamePartitions.partition(of: "game-1-1", count: 2) == 1)
        #expect(GamePartitions.partition(of: "game-2-45", count: 3) == 2)
        #expect(GamePartitions.partition(of: "game-12-3", count: 13) == 12)
        // One Redis stores whatever id it was given, exactly as before partitions.
        for id: GameID in ["game-1", "game-1-1", "g1", "", "anything at all"] {
            #expect(GamePartitions.partition(of: id, count: 1) == 0)
        }
        #expect(GamePartitions.partition(of: "game-1", count: 0) == nil)
    }

    @Test(
        "malformed ids and partitions that do not exist map to none (the game is unknown)",
        arguments: [
            "", "game", "game-", "game-0", "game-01", "game--1", "game-1-", "game-0-5", "game-01-5", "game-2-5",
            "game-1-0", "game-1-2-3", "game-x", "game-1-x", "Game-1", "g1", "game-+1", "game- 1", "game-١",
            "game-1234567890123456789",
        ] as [String])
    func malformedIDs(id: String) {
        #expect(GamePartitions.partition(of: GameID(id), count: 2) == nil, "\(id)")
    }

    @Test("every id a partition makes maps back to that partition")
    func prefixesRoundTrip() {
        for count in 1...5 {
            for index in 0..<count {
                for number in [1, 9, 10, 12345] {
                    let id = GameID(GamePartitions.idPrefix(forPartition: index) + "\(number)")
                    #expect(GamePartitions.partition(of: id, count: count) == index, "\(id) of \(count)")
                }
            }
        }
        #expect(GamePartitions.idPrefix(forPartition: 0) == "game-")
        #expect(GamePartitions.idPrefix(forPartition: 3) == "game-3-")
    }

    @Test("a new game goes to the partition with the fewest games among those that answered, ties to the lowest")
    func newGamePartition() {
        #expect(GamePartitions.partitionForNewGame(counts: [0, 0]) == 0)
        #expect(GamePartitions.partitionForNewGame(counts: [1, 0]) == 1)
        #expect(GamePartitions.partitionForNewGame(counts: [1, 1]) == 0)
        #expect(GamePartitions.partitionForNewGame(counts: [5, 3, 3]) == 1)
        #expect(GamePartitions.partitionForNewGame(counts: [nil, 7]) == 1)
        #expect(GamePartitions.partitionForNewGame(counts: [0, nil]) == 0)
        #expect(GamePartitions.partitionForNewGame(counts: [nil, nil]) == nil)
        #expect(GamePartitions.partitionForNewGame(counts: []) == nil)
    }
}
