import CourtsideJournal
import CourtsideModel
import Dispatch
import Synchronization

/// A journal for the owner's tests: an `InMemoryJournal` (the real rules: sequences, command ids, the archive) that
/// records every write, fails the next writes a test names, and answers a shared log's reads (`events(ofGame:)`)
/// for the shared mode. Another node is played by `appendAsAnotherNode`, which writes to the same store directly.
final class FakeSharedLog: SharedGameJournal {
    let nodeID = "test-node"
    private let store = InMemoryJournal()
    private let state = Mutex(State())

    private struct State {
        var writes: [JournalWrite] = []
        var failures: [JournalError] = []
        var failReads: [JournalError] = []
        var gameLoads = 0
    }
    /// `loadGame`'s answers come from a queue of the log's own, as a store's come from its client's loop.
    private let answers = DispatchQueue(label: "fake-shared-log.answers")

    init(game: GameRecord) throws {
        try store.createGame(game)
    }

    /// How many times `loadGame` was asked (it always fails: a game this log does not hold).
    var gameLoads: Int { state.withLock { $0.gameLoads } }

    /// Every write the owner submitted, in order (failed ones included).
    var writes: [JournalWrite] { state.withLock { $0.writes } }

    /// The next writes fail with these errors, in order, storing nothing.
    func failNextWrites(_ errors: JournalError...) {
        state.withLock { $0.failures += errors }
    }

    /// The next catch-up reads fail with these errors, in order.
    func failNextReads(_ errors: JournalError...) {
        state.withLock { $0.failReads += errors }
    }

    /// What the store holds of game `id`.
    func stored(_ id: GameID) throws -> JournaledGame? {
        try store.loadGames().first { $0.record.setup.id == id }
    }

    /// Another node's batch, stored directly (the owner hears of it through its feed or a conflict).
    func appendAsAnotherNode(_ events: [JournaledEvent], toGame id: GameID) throws {
        try store.append(events, toGame: id)
    }

    func submit(_ write: JournalWrite, completion: @escaping JournalCompletion) {
        let failure = state.withLock { state -> JournalError? in
            state.writes.append(write)
            return state.failures.isEmpty ? nil : state.failures.removeFirst()
        }
        if let failure {
            completion(.failure(failure))
        } else {
            store.submit(write, completion: completion)
        }
    }

    func loadGames() throws(JournalError) -> [JournaledGame] { try store.loadGames() }

    func close() { store.close() }

    func events(
        ofGame id: GameID, after: Int,
        completion: @escaping @Sendable (Result<[JournaledEvent], JournalError>) -> Void
    ) {
        if let failure = state.withLock({ $0.failReads.isEmpty ? nil : $0.failReads.removeFirst() }) {
            completion(.failure(failure))
            return
        }
        do {
            let game = try stored(id)
            completion(.success(game?.events.filter { $0.event.sequence > after } ?? []))
        } catch {
            completion(.failure(.closed))
        }
    }

    func loadGame(_ id: GameID, completion: @escaping @Sendable (Result<JournaledGame, JournalError>) -> Void) {
        state.withLock { $0.gameLoads += 1 }
        answers.async { completion(.failure(.unknownGame(id))) }
    }

    func ping(completion: @escaping @Sendable (Bool) -> Void) { completion(true) }

    func lease(
        _ name: String, for duration: Duration, completion: @escaping @Sendable (Result<Bool, JournalError>) -> Void
    ) { completion(.success(true)) }

    func exchangeViewerCounts(
        _ counts: [GameID: Int], ttl: Duration,
        completion: @escaping @Sendable (Result<[GameID: Int], JournalError>) -> Void
    ) { completion(.success(counts)) }

    func nextGameID(completion: @escaping @Sendable (Result<GameID, JournalError>) -> Void) {
        completion(.failure(.closed))
    }
}
