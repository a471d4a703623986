/// The stable codes the wire uses for the model's errors. Swift errors carry context and may grow cases; these
/// strings are protocol and never change. `GameError.code` maps errors here, and nowhere
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
    case gameLocked = "game_locked"
    case notInRules = "not_in_rules"
    case noTimeoutsLeft = "no_timeouts_left"
    case shotClockRunning = "shot_clock_running"
    case shotClockStopped = "shot_clock_stopped"
    case shotClockOff = "shot_clock_off"
    case outOfRange = "out_of_range"
    case unknownPlay = "unknown_play"
    case playDeleted = "play_deleted"
    case wrongTeam = "wrong_team"
    case notOnCourt = "not_on_court"
    case alreadyOnCourt = "already_on_court"
    case notLocked = "not_locked"
    case moveNotInRules = "move_not_in_rules"
    case playerNotEligible = "player_not_eligible"
}
