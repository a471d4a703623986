import CourtsideModel

/// Called once when a write is durable (`.success`) or refused (`.failure`, nothing stored). It runs on the
/// journal's own thread (or, for `InMemoryJournal`, on the submitter's, before `submit` returns): do no blocking
/// work in it, and never wait on the same journal from it. The server hops back to its event loop.
public typealias JournalCompletion = @Sendable (Result<Void, JournalError>) -> Void

/// The server's one interface to durable storage: games, their events with presentation sequence numbers, and the
/// archived flag. `SQLiteJournal` implements it on a local file; `InMemoryJournal` for tests of other layers; a
/// distributed event log (Redis Streams, see docs/journal.md) can implement it later without the server noticing.
///
/// Writes are asynchronous: `submit` never blocks on the disk, so an event loop may call it. A completion with
/// `.success` means the write is durable: the server acks a command only then. Writes submitted from one thread
/// are applied in submission order, so one owner per game appends its events in order. The synchronous helpers
/// (`perform`, `createGame(_:)`, …) wait and are for start-up, tools and tests, never for an event loop.
///
/// What a journal does not enforce: that events replay to a valid game (the model checks that on load, in
/// `JournaledGame.replayed()`), and idempotency of retried commands (the model answers those from its
/// accepted-command record; the journal only refuses a command id recorded twice for one game).
public protocol GameJournal: Sendable {
    /// Queues `write`; `completion` runs once, after the write is durable or was refused. After `close()`, fails
    /// with `.closed`.
    func submit(_ write: JournalWrite, completion: @escaping JournalCompletion)

    /// Everything stored, games in creation order with their events in order. Blocks: call it at start-up.
    func loadGames() throws(JournalError) -> [JournaledGame]

    /// The same, with each game whose records cannot be read back set aside (`JournalContents.quarantined`) instead
    /// of failing the load, so one damaged game does not keep the others from being served. Defaults to
    /// `loadGames()` with nothing quarantined.
    func loadContents() throws(JournalError) -> JournalContents

    /// Completes every write already submitted, then releases the storage; later writes fail with `.closed`.
    /// Calling it again does nothing. Blocks until the pending writes are done.
    func close()
}

extension GameJournal {
    /// Creates a game (asynchronously; see `submit`).
    public func createGame(_ record: GameRecord, completion: @escaping JournalCompletion) {
        submit(.createGame(record), completion: completion)
    }

    /// Appends a contiguous batch of a game's events (asynchronously; see `submit`).
    public func append(_ events: [JournaledEvent], toGame id: GameID, completion: @escaping JournalCompletion) {
        submit(.appendEvents(events, toGame: id), completion: completion)
    }

    /// Archives a game (asynchronously; see `submit`).
    public func archiveGame(_ id: GameID, at: Timestamp, completion: @escaping JournalCompletion) {
        submit(.archiveGame(id, at: at), completion: completion)
    }

    /// Raises a game's presentation watermark (asynchronously; see `submit`).
    public func recordPresentationSequence(_ seq: Int, forGame id: GameID, completion: @escaping JournalCompletion) {
        submit(.recordPresentationSequence(seq, forGame: id), completion: completion)
    }

    /// Performs `write` and waits until it is durable; throws when it was refused. Blocks: not for event loops.
    public func perform(_ write: JournalWrite) throws(JournalError) {
        let waiter = CompletionWaiter<Void>()
        submit(write) { waiter.complete($0) }
        try waiter.wait().get()
    }

    /// Creates a game and waits until it is durable.
    public func createGame(_ record: GameRecord) throws(JournalError) {
        try perform(.createGame(record))
    }

    /// Appends a batch of a game's events and waits until they are durable.
    public func append(_ events: [JournaledEvent], toGame id: GameID) throws(JournalError) {
        try perform(.appendEvents(events, toGame: id))
    }

    /// Archives a game and waits until that is durable.
    public func archiveGame(_ id: GameID, at: Timestamp) throws(JournalError) {
        try perform(.archiveGame(id, at: at))
    }

    /// Raises a game's presentation watermark and waits until that is durable.
    public func recordPresentationSequence(_ seq: Int, forGame id: GameID) throws(JournalError) {
        try perform(.recordPresentationSequence(seq, forGame: id))
    }
}
