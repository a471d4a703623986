import CourtsideModel

/// A game whose stored records cannot be read back (an edited or damaged row): the server starts without it and
/// answers requests for it with an error naming `problem`, instead of refusing to start for every other game.
public struct QuarantinedGame: Sendable, Hashable {
    public var id: GameID
    /// What is wrong, naming the record (`JournalError.corruptRecord`'s description, or a replay error).
    public var problem: String
    /// The journal's error, when reading the rows failed (nil for a game that read back but does not replay).
    public var error: JournalError?

    public init(id: GameID, problem: String, error: JournalError? = nil) {
        self.id = id
        self.problem = problem
        self.error = error
    }
}

/// What a journal holds at start-up: the games that read back, and those that did not.
public struct JournalContents: Sendable, Hashable {
    public var games: [JournaledGame]
    public var quarantined: [QuarantinedGame]

    public init(games: [JournaledGame], quarantined: [QuarantinedGame] = []) {
        self.games = games
        self.quarantined = quarantined
    }
}

extension GameJournal {
    /// The default of `GameJournal.loadContents()`: a journal that cannot tell one game's damage from another's
    /// quarantines nothing, and `loadGames()` decides.
    public func loadContents() throws(JournalError) -> JournalContents {
        JournalContents(games: try loadGames())
    }
}

extension JournalContents {
    /// The games, or the first quarantined game's error: what `loadGames()` returns for a journal that quarantines.
    public func gamesOrFirstError() throws(JournalError) -> [JournaledGame] {
        if let first = quarantined.first {
            throw first.error ?? .corruptRecord(first.id, sequence: nil, reason: first.problem)
        }
        return games
    }
}
