/// Why a recorded event could not be replayed: the log is not one this model wrote (edited, truncated in the
/// middle, reordered, or from rules that changed). Each case carries the event at fault.
public enum GameReplayError: Error, Sendable, Hashable {
    /// The event's sequence number is not the next one.
    case unexpectedSequence(GameEvent, expected: Int)
    /// The event is dated before the previous one.
    case timeWentBackwards(GameEvent, previous: Timestamp)
    /// The event's command id was already used by an earlier event.
    case duplicateCommandID(GameEvent)
    /// The clock had passed the end of the period (or a window to confirm a play had closed) before this event, but
    /// no `timeLimitReached` (or `confirmationExpired`) precedes it.
    case missingTimeLimit(GameEvent)
    /// The game would have refused the event's command.
    case rejected(GameEvent, GameError)
    /// The event does not match the game's state (a period end at the wrong instant, an undo of another move, an
    /// event without a command id other than a period end or a reopen, a reopen of a game that was not locked).
    case inconsistent(GameEvent)
}
