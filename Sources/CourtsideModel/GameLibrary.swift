/// The games a server knows: create, look up, list, archive, and apply commands to one of them.
///
/// A pure value: the owner keeps it on one loop (or behind one lock) and journals what the calls return.
/// Ids are either injected (`add(_:)` with a setup that names its id, e.g. when restoring from a journal) or made
/// by `makeGameID()`, a counter with a prefix, so two runs given the same calls make the same ids.
/// Archived games stay readable (`game(_:)`, `list(includeArchived: true)`) but refuse commands and time.
public struct GameLibrary: Sendable, Hashable {
    /// Prefix of generated ids: `game-1`, `game-2`, …
    public let idPrefix: String
    /// The number the next generated id will carry.
    public private(set) var nextIDNumber: Int

    private var games: [GameID: Game] = [:]
    /// Ids in creation order: what `list` follows.
    private var order: [GameID] = []
    private var archived: Set<GameID> = []

    public init(idPrefix: String = "game-", firstIDNumber: Int = 1) {
        self.idPrefix = idPrefix
        self.nextIDNumber = firstIDNumber
    }

    /// A fresh id that no game in the library has.
    public mutating func makeGameID() -> GameID {
        while true {
            let id = GameID("\(idPrefix)\(nextIDNumber)")
            nextIDNumber += 1
            if games[id] == nil { return id }
        }
    }

    /// Creates a game with a generated id and returns it.
    @discardableResult
    public mutating func create(
        homeTeam: String, homePlayers: [String], awayTeam: String, awayPlayers: [String], rules: Rules = .pickup
    ) throws(GameSetupError) -> Game {
        let setup = try GameSetup(
            id: makeGameID(), homeTeam: homeTeam, homePlayers: homePlayers, awayTeam: awayTeam,
            awayPlayers: awayPlayers, rules: rules)
        let game = Game(setup: setup)
        insert(game)
        return game
    }

    /// Adds a game (new from a setup, or rebuilt from a journal); its id must be new to the library.
    public mutating func add(_ game: Game) throws(GameLibraryError) {
        guard games[game.id] == nil else { throw .duplicateGameID(game.id) }
        insert(game)
    }

    /// The game with `id` (archived or not), or nil.
    public func game(_ id: GameID) -> Game? {
        games[id]
    }

    /// Games in creation order; archived ones only when asked for.
    public func list(includeArchived: Bool = false) -> [Game] {
        order.compactMap { id in
            includeArchived || !archived.contains(id) ? games[id] : nil
        }
    }

    public func isArchived(_ id: GameID) -> Bool {
        archived.contains(id)
    }

    /// Archives the game with `id`: it leaves the default list and refuses further commands. Archiving an archived
    /// game changes nothing.
    public mutating func archive(_ id: GameID) throws(GameLibraryError) {
        guard games[id] != nil else { throw .unknownGame(id) }
        archived.insert(id)
    }

    /// Applies `command` to the game with `id` at `now` (see `Game.apply(_:at:)`).
    @discardableResult
    public mutating func apply(
        _ command: GameCommand, toGame id: GameID, at now: Timestamp
    ) throws(GameLibraryError) -> CommandOutcome {
        guard var game = games[id] else { throw .unknownGame(id) }
        guard !archived.contains(id) else { throw .gameArchived(id) }
        // Take the game out while it changes so its storage is not shared (no copy of its event log).
        games[id] = nil
        defer { games[id] = game }
        do {
            return try game.apply(command, at: now)
        } catch {
            throw .rejected(id, error)
        }
    }

    /// An event recorded by `advance(to:)`, with the game it belongs to.
    public struct TimedEvent: Sendable, Hashable {
        public let gameID: GameID
        public let event: GameEvent
    }

    /// Lets time pass for every live game (see `Game.advance(to:)`); returns the events recorded, in creation order
    /// of their games.
    public mutating func advance(to now: Timestamp) -> [TimedEvent] {
        var recorded: [TimedEvent] = []
        for id in order where !archived.contains(id) && games[id]?.timeLimitDeadline != nil {
            guard var game = games[id] else { continue }
            games[id] = nil
            if let event = game.advance(to: now) {
                recorded.append(TimedEvent(gameID: id, event: event))
            }
            games[id] = game
        }
        return recorded
    }

    /// The earliest time-limit deadline among live games: when the owner should next call `advance(to:)`.
    public var nextDeadline: Timestamp? {
        order.lazy.filter { !archived.contains($0) }.compactMap { games[$0]?.timeLimitDeadline }.min()
    }

    /// Puts back a game that changed outside `apply` (its id is known).
    mutating func replace(_ game: Game) {
        games[game.id] = game
    }

    private mutating func insert(_ game: Game) {
        games[game.id] = game
        order.append(game.id)
    }
}

extension GameLibrary {
    /// Reopens the locked game with `id` at `now` (an administrator's decision; see `Game.reopen(at:)`).
    @discardableResult
    public mutating func reopen(_ id: GameID, at now: Timestamp) throws(GameLibraryError) -> GameEvent {
        guard var game = game(id) else { throw .unknownGame(id) }
        guard !isArchived(id) else { throw .gameArchived(id) }
        do {
            let event = try game.reopen(at: now)
            replace(game)
            return event
        } catch {
            throw .rejected(id, error)
        }
    }
}
