import CourtsideModel

/// A journal that several server nodes share (Redis Streams; docs/redis.md, "Several nodes on one store"): besides
/// `GameJournal`'s writes, a node reads what other nodes stored, game by game, and takes game ids that no other
/// node takes.
///
/// Every read completes once, on the journal's own thread: hop back to the caller's loop, as for writes.
public protocol SharedGameJournal: GameJournal {
    /// Names this node in the shared feed (`--node-id`), so it can skip its own entries.
    var nodeID: String { get }

    /// The events of game `id` after sequence `after`, in order (a node catching up after a sequence conflict or a
    /// gap in the feed).
    func events(
        ofGame id: GameID, after: Int, completion: @escaping @Sendable (Result<[JournaledEvent], JournalError>) -> Void)

    /// One game as `loadGames()` would return it (a game another node created, seen for the first time).
    func loadGame(_ id: GameID, completion: @escaping @Sendable (Result<JournaledGame, JournalError>) -> Void)

    /// Asks the store whether it answers (over the connection the writes use); `completion` gets whether it did
    /// within the request timeout.
    func ping(completion: @escaping @Sendable (Bool) -> Void)

    /// Takes or renews the lease `name` for this node for `duration` (one node at a time holds it, until it lapses):
    /// `completion` gets whether this node holds it now.
    func lease(
        _ name: String, for duration: Duration, completion: @escaping @Sendable (Result<Bool, JournalError>) -> Void)

    /// Publishes this node's spectators per game (kept `ttl`, so a dead node's counts vanish) and answers every live
    /// node's counts summed per game.
    func exchangeViewerCounts(
        _ counts: [GameID: Int], ttl: Duration,
        completion: @escaping @Sendable (Result<[GameID: Int], JournalError>) -> Void)

    /// A game id no node has used or will use (`game-N` from one counter in the store).
    func nextGameID(completion: @escaping @Sendable (Result<GameID, JournalError>) -> Void)
}
