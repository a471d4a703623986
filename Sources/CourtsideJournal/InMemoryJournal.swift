import CourtsideModel
import Synchronization

/// A `GameJournal` in memory, for tests of the layers above: it refuses exactly what `SQLiteJournal` refuses (the
/// same `JournalRules`), but nothing survives the process.
///
/// Writes are applied under a lock and their completion runs on the submitter's thread before `submit` returns,
/// so tests are deterministic. `contents` reads the stored games at any time, even after `close()`, and
/// `init(restoring:)` makes a "restarted" journal from them.
public final class InMemoryJournal: GameJournal {
    private struct State {
        var games: [GameID: JournaledGame] = [:]
        var order: [GameID] = []
        /// Each game's recorded command ids, so a batch is checked without scanning the game's events.
        var commands: [GameID: Set<CommandID>] = [:]
        var isClosed = false
    }

    private let state: Mutex<State>

    /// A journal holding `games` (in creation order), as if they had been written before a restart.
    public init(restoring games: [JournaledGame] = []) {
        var initial = State()
        for game in games {
            initial.games[game.id] = game
            initial.order.append(game.id)
            initial.commands[game.id] = Set(game.events.lazy.compactMap(\.event.commandID))
        }
        self.state = Mutex(initial)
    }

    /// The stored games in creation order.
    public var contents: [JournaledGame] {
        state.withLock { state in state.order.compactMap { state.games[$0] } }
    }

    public func submit(_ write: JournalWrite, completion: @escaping JournalCompletion) {
        let result = state.withLock { state -> Result<Void, JournalError> in
            if state.isClosed { return .failure(.closed) }
            do throws(JournalError) {
                try Self.apply(write, to: &state)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        completion(result)
    }

    public func loadGames() throws(JournalError) -> [JournaledGame] {
        let games = state.withLock { state -> [JournaledGame]? in
            state.isClosed ? nil : state.order.compactMap { state.games[$0] }
        }
        guard let games else { throw .closed }
        return games
    }

    public func close() {
        state.withLock { $0.isClosed = true }
    }

    /// Checks everything before changing anything, so a refused write leaves the state untouched.
    private static func apply(_ write: JournalWrite, to state: inout State) throws(JournalError) {
        switch write {
        case .createGame(let record):
            try JournalRules.checkNewGame(record)
            guard state.games[record.id] == nil else { throw .duplicateGame(record.id) }
            state.games[record.id] = JournaledGame(record: record)
            state.order.append(record.id)
        case .appendEvents(let events, let id):
            guard var game = state.games[id] else { throw .unknownGame(id) }
            let recorded = state.commands[id, default: []]
            let tail = JournalRules.Tail(
                isArchived: game.isArchived, lastSequence: game.lastEventSequence,
                lastPresentationSequence: game.lastPresentationSequence)
            try JournalRules.checkAppend(events, toGame: id, tail: tail) { recorded.contains($0) }
            state.games[id] = nil
            game.events.append(contentsOf: events)
            state.games[id] = game
            state.commands[id, default: []].formUnion(events.lazy.compactMap(\.event.commandID))
        case .archiveGame(let id, let at):
            guard var game = state.games[id] else { throw .unknownGame(id) }
            if !game.isArchived {
                game.isArchived = true
                game.archivedAt = at
                state.games[id] = game
            }
        case .recordPresentationSequence(let seq, let id):
            guard var game = state.games[id] else { throw .unknownGame(id) }
            game.presentationWatermark = max(game.presentationWatermark, seq)
            state.games[id] = game
        }
    }
}
