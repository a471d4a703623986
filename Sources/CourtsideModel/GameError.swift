/// Why a game rejected a command. A rejected command leaves the game exactly as it was.
public enum GameError: Error, Sendable, Hashable {
    /// A move arrived after `winner` won.
    case moveAfterFinish(winner: TeamSide)
    /// A clock start arrived after `winner` won.
    case clockStartAfterFinish(winner: TeamSide)
    /// The move names a player the game does not have.
    case unknownPlayer(PlayerID)
    /// Every move was already undone (or none was made).
    case nothingToUndo
    /// A clock start arrived while the clock runs.
    case clockAlreadyRunning
    /// A clock pause arrived while the clock is stopped.
    case clockNotRunning
    /// The command id was already accepted for a different command (`accepted` is what it recorded).
    case commandIDReused(CommandID, accepted: GameEvent)

    /// The stable code the wire carries for this error.
    public var code: ModelErrorCode {
        switch self {
        case .moveAfterFinish, .clockStartAfterFinish: return .gameFinished
        case .unknownPlayer: return .unknownPlayer
        case .nothingToUndo: return .nothingToUndo
        case .clockAlreadyRunning: return .clockRunning
        case .clockNotRunning: return .clockStopped
        case .commandIDReused: return .commandIDReused
        }
    }
}
