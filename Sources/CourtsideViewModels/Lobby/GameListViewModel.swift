import CourtsideModel

/// The lobby, the tutorial's suggested "game list" screen: every listed game with its teams, score and state, in
/// the order the games were added.
///
/// Changes come as values (``upsert(_:)``, ``remove(_:)``) so that games living on other threads can report to
/// the lobby by handing it a `GameSummary`; ``track(_:)`` binds a game on the same thread directly. Each call that
/// changes the list is one batch, closed by ``revision`` growing by 1, as in ``GameScoreboardEditorViewModel``.
///
/// Loop-confined.
public final class GameListViewModel {
    /// One row of the lobby.
    public struct Entry: Equatable, Sendable {
        public var summary: GameSummary
        /// The position the game was added at (a lobby sorts by it; it never changes for a game).
        public var order: Int
        /// Open spectator connections, as last counted (every 5 s; the game's own summary does not know them).
        public var viewers: Int = 0
    }

    /// What one batch changed: one row written or one row taken off. Deliberately not `Equatable`, so every
    /// batch notifies.
    public enum Change: Sendable {
        case upserted(Entry)
        case removed(GameID)
    }

    /// The listed games, in the order they were added.
    public var games: Dynamic<[Entry]> { mutableGames }
    /// The latest batch's change, set just before ``revision`` grows: a presenter of a large lobby rewrites one row
    /// instead of rebuilding and diffing every game.
    public var lastChange: Dynamic<Change?> { mutableLastChange }
    /// The number of batches that changed the list.
    public var revision: Dynamic<Int> { mutableRevision }

    private let mutableGames = MutableDynamic<[Entry]>([])
    private let mutableLastChange = MutableDynamic<Change?>(nil)
    private let mutableRevision: MutableDynamic<Int>
    private var nextOrder = 0
    /// Row positions by id, so an update costs one lookup, not a scan of every game.
    private var indexByID: [GameID: Int] = [:]

    /// A lobby listing `summaries`, continuing a numbering at `revision`.
    public init(summaries: [GameSummary] = [], revision: Int = 0) {
        self.mutableRevision = MutableDynamic(revision)
        var entries: [Entry] = []
        for summary in summaries where indexByID[summary.id] == nil {
            indexByID[summary.id] = entries.count
            entries.append(Entry(summary: summary, order: nextOrder))
            nextOrder += 1
        }
        mutableGames.value = entries
    }

    /// Adds the game, or updates its row; nothing happens when the row already reads so.
    public func upsert(_ summary: GameSummary) {
        var entries = mutableGames.value
        let entry: Entry
        if let index = indexByID[summary.id] {
            guard entries[index].summary != summary else { return }
            // `viewers` is kept: only the counter sets it.
            entries[index].summary = summary
            entry = entries[index]
        } else {
            entry = Entry(summary: summary, order: nextOrder)
            indexByID[summary.id] = entries.count
            entries.append(entry)
            nextOrder += 1
        }
        commit(entries, change: .upserted(entry))
    }

    /// Takes the game off the list (archived or deleted); nothing happens when it is not listed.
    public func remove(_ id: GameID) {
        guard let index = indexByID.removeValue(forKey: id) else { return }
        var entries = mutableGames.value
        entries.remove(at: index)
        for later in index..<entries.count {
            indexByID[entries[later].summary.id] = later
        }
        commit(entries, change: .removed(id))
    }

    /// Sets a listed game's viewer count; nothing happens when it is not listed or already reads so.
    public func setViewers(_ count: Int, of id: GameID) {
        guard let index = indexByID[id], mutableGames.value[index].viewers != count else { return }
        var entries = mutableGames.value
        entries[index].viewers = count
        commit(entries, change: .upserted(entries[index]))
    }

    /// Lists a game on this thread and keeps its row current until the returned binding is removed.
    @discardableResult
    public func track(_ game: GameScoreboardEditorViewModel) -> DynamicBinding {
        game.summary.bindAndFire { [weak self] summary in self?.upsert(summary) }
    }

    private func commit(_ entries: [Entry], change: Change) {
        mutableGames.value = entries
        mutableLastChange.value = change
        mutableRevision.value += 1
    }
}

@available(*, unavailable)
extension GameListViewModel: Sendable {}
