/// The stable codes the wire uses for the model's errors. Swift errors carry context and may grow cases; these
/// strings are protocol and never change. `GameError.code` and `GameLibraryError.code` map errors here, and nowhere
/// else.
public enum ModelErrorCode: String, Sendable, Hashable, Codable, CaseIterable {
    case gameFinished = "game_finished"
    case unknownPlayer = "unknown_player"
    case nothingToUndo = "nothing_to_undo"
    case clockRunning = "clock_running"
    case clockStopped = "clock_stopped"
    case commandIDReused = "command_id_reused"
    case unknownGame = "unknown_game"
    case gameArchived = "game_archived"
    case duplicateGameID = "duplicate_game_id"
}
