import CourtsideModel

/// What one command, tick, reopen or stored batch did to a game's view model, as a value: the events it appended
/// to the game's log (empty when it changed nothing there), the answer owed to the command's sender (nil for a
/// tick or a stored batch), and what the views show after it (the frame, the plays it added or changed, the
/// revision numbering it and the instant it is shown as of). The owner journals the events and answers the reply;
/// the presenter makes the next document from the frame; nothing of it travels through an observer (the reducer
/// habit: effects are returned, not broadcast).
public struct ScoreboardBatch: Equatable, Sendable {
    public let events: [GameEvent]
    public let reply: CommandReply?
    /// What the views show after the batch.
    public let frame: GameFrame
    /// The play rows this batch added or changed (empty when it changed none, or changed nothing at all).
    public let changedPlays: [PlayRow]
    /// The view model's revision after the batch: one more than before when it changed anything shown (or the
    /// stored number of a stored batch), the same when it changed nothing.
    public let revision: Int
    /// The instant the batch is shown as of (a command's `now`, a tick's deadline, a stored batch's last event).
    public let instant: Timestamp

    public init(
        events: [GameEvent], reply: CommandReply?, frame: GameFrame, changedPlays: [PlayRow], revision: Int,
        instant: Timestamp
    ) {
        self.events = events
        self.reply = reply
        self.frame = frame
        self.changedPlays = changedPlays
        self.revision = revision
        self.instant = instant
    }

    /// The same batch answering `reply` instead (a refused command whose passing of the time limit was recorded).
    func answering(_ reply: CommandReply?) -> ScoreboardBatch {
        ScoreboardBatch(
            events: events, reply: reply, frame: frame, changedPlays: changedPlays, revision: revision,
            instant: instant)
    }
}
