/// Why a game rejected a command. A rejected command leaves the game exactly as it was.
public enum GameError: Error, Sendable, Hashable {
    /// A feature of the scoreboard the game's rules do not use (a timeout in a pickup game).
    public enum Feature: String, Sendable, Hashable {
        case shotClock = "shot clock"
        case timeouts
        case possession
        case substitutions
        /// Ending a period by hand: an untimed game (or untimed overtime) has no period to end.
        case timedPeriods = "timed periods"
    }

    /// A move arrived after `winner` won.
    case moveAfterFinish(winner: TeamSide)
    /// A clock start arrived after `winner` won.
    case clockStartAfterFinish(winner: TeamSide)
    /// A timeout, shot clock start or clock correction arrived after `winner` won.
    case afterFinish(winner: TeamSide)
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
    /// The game was confirmed final; only an administrator's reopen changes it.
    case gameLocked
    /// The rules of the game do not use `feature`.
    case notInRules(Feature)
    /// `team` has no timeout left in this part of the game.
    case noTimeoutsLeft(TeamSide)
    /// A shot clock start arrived while it runs.
    case shotClockAlreadyRunning
    /// A shot clock pause arrived while it is stopped.
    case shotClockNotRunning
    /// The shot clock is switched off (enable it first).
    case shotClockOff
    /// A time outside what the clock can show (`allowed`, in milliseconds).
    case timeOutOfRange(Int64, allowed: ClosedRange<Int64>)
    /// No play has this number.
    case unknownPlay(Int)
    /// The play was already deleted.
    case playDeleted(Int)
    /// The player does not play for `team`.
    case wrongTeam(PlayerID, team: TeamSide)
    /// The player leaving is not on court.
    case notOnCourt(PlayerID)
    /// The player coming in is already on court.
    case alreadyOnCourt(PlayerID)
    /// A reopen of a game that is not locked.
    case notLocked
    /// The game's rules do not have this player move (a three-pointer where the arc is worth 2).
    case moveNotInRules(PlayerMove)
    /// The game's rules do not have this team move (a coach's technical foul where there is no coach).
    case teamMoveNotInRules(TeamMove)
    /// The player fouled out or was disqualified: no more moves, and they cannot come back on court.
    case playerNotEligible(PlayerID)
    /// A table-crew member's role does not take this command (`command` is its wire type).
    case notAllowedForRole(CrewRole, command: String)
    /// The member was revoked: their commands are refused.
    case memberRevoked(CrewMemberID)
    /// The game has no member with this id (or it was revoked).
    case unknownMember(CrewMemberID)
    /// The game already recorded `limit` members.
    case crewFull(limit: Int)
    /// A member's label is empty or longer than `CrewMember.maxLabelLength` characters.
    case invalidCrewLabel
    /// A review runs: the clock cannot start, and a second review cannot start.
    case underReview
    /// A review end with no review running.
    case notUnderReview
    /// A resolve of a play the scorers do not disagree on (or that was resolved already).
    case notInConflict(Int)
    /// A resolve keeping the second entry (or both) of a play whose window closed with no second entry.
    case noSecondEntry(Int)
    /// A correction of a play the scorers disagree on: only a resolve settles it.
    case playInConflict(Int)
    /// A `final` while plays wait for the other scorer (`pending`) or for a resolve (`conflicts`).
    case unconfirmedPlays(pending: Int, conflicts: Int)

    /// The stable code the wire carries for this error.
    public var code: ModelErrorCode {
        switch self {
        case .moveAfterFinish, .clockStartAfterFinish, .afterFinish: return .gameFinished
        case .unknownPlayer: return .unknownPlayer
        case .nothingToUndo: return .nothingToUndo
        case .clockAlreadyRunning: return .clockRunning
        case .clockNotRunning: return .clockStopped
        case .commandIDReused: return .commandIDReused
        case .gameLocked: return .gameLocked
        case .notInRules: return .notInRules
        case .noTimeoutsLeft: return .noTimeoutsLeft
        case .shotClockAlreadyRunning: return .shotClockRunning
        case .shotClockNotRunning: return .shotClockStopped
        case .shotClockOff: return .shotClockOff
        case .timeOutOfRange: return .outOfRange
        case .unknownPlay: return .unknownPlay
        case .playDeleted: return .playDeleted
        case .wrongTeam: return .wrongTeam
        case .notOnCourt: return .notOnCourt
        case .alreadyOnCourt: return .alreadyOnCourt
        case .notLocked: return .notLocked
        case .moveNotInRules, .teamMoveNotInRules: return .moveNotInRules
        case .playerNotEligible: return .playerNotEligible
        case .notAllowedForRole: return .notAllowedForRole
        case .memberRevoked: return .memberRevoked
        case .unknownMember: return .unknownMember
        case .crewFull: return .crewFull
        case .invalidCrewLabel: return .invalidCrewMember
        case .underReview: return .underReview
        case .notUnderReview: return .notUnderReview
        case .notInConflict: return .notInConflict
        case .noSecondEntry: return .noSecondEntry
        case .playInConflict: return .playInConflict
        case .unconfirmedPlays: return .unconfirmedPlays
        }
    }
}
