import CourtsideModel

/// One change to the journal. Each write is atomic: all of it is stored, or (with an error) none of it.
public enum JournalWrite: Sendable, Hashable {
    /// Creates a game; its id must be new to the journal.
    case createGame(GameRecord)
    /// Appends a batch of events to a live game. The first event's sequence must be the game's last plus one and
    /// the batch contiguous (no gap, no duplicate); presentation sequences never decrease; a command id appears
    /// at most once per game.
    case appendEvents([JournaledEvent], toGame: GameID)
    /// Archives a game: it stays readable and refuses further events. Archiving an archived game changes nothing
    /// (the first `at` is kept).
    case archiveGame(GameID, at: Timestamp)
    /// Notes that the server published presentation sequence `seq` for a game in a message without a new event (a
    /// resync, the archive notice), so that a restart numbers its next message after it. Only raises the game's
    /// watermark (a lower number changes nothing); allowed on archived games.
    case recordPresentationSequence(Int, forGame: GameID)

    /// The game the write concerns.
    public var gameID: GameID {
        switch self {
        case .createGame(let record): return record.id
        case .appendEvents(_, let id): return id
        case .archiveGame(let id, _): return id
        case .recordPresentationSequence(_, let id): return id
        }
    }
}
