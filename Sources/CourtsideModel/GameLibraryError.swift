/// Why the library refused a call.
public enum GameLibraryError: Error, Sendable, Hashable {
    /// No game has this id.
    case unknownGame(GameID)
    /// The game is archived and takes no more commands.
    case gameArchived(GameID)
    /// A game with this id already exists.
    case duplicateGameID(GameID)
    /// The game refused the command.
    case rejected(GameID, GameError)

    /// The stable code the wire carries for this error (a rejected command carries the game's code).
    public var code: ModelErrorCode {
        switch self {
        case .unknownGame: return .unknownGame
        case .gameArchived: return .gameArchived
        case .duplicateGameID: return .duplicateGameID
        case .rejected(_, let error): return error.code
        }
    }
}
