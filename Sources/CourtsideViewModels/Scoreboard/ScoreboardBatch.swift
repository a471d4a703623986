import CourtsideModel

/// What one command, tick, reopen or stored batch did to a game's view model, as a value: the events it appended
/// to the game's log (empty when it changed nothing there) and the answer owed to the command's sender (nil for a
/// tick or a stored batch). The owner journals the events and answers the reply; nothing of it travels through an
/// observer (the reducer habit: effects are returned, not broadcast).
public struct ScoreboardBatch: Equatable, Sendable {
    public let events: [GameEvent]
    public let reply: CommandReply?

    public init(events: [GameEvent], reply: CommandReply?) {
        self.events = events
        self.reply = reply
    }
}
