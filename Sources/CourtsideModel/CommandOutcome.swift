/// What applying a command did.
public struct CommandOutcome: Sendable, Hashable {
    /// The event that records the command: the same on every retry of its id, so a client gets the same answer.
    public let event: GameEvent
    /// The events this call appended to the game's log, oldest first: what the owner journals and publishes.
    /// A `timeLimitReached` may precede `event` when the clock passed the limit before the command arrived.
    /// Empty for a retry.
    public let newEvents: [GameEvent]

    public init(event: GameEvent, newEvents: [GameEvent]) {
        self.event = event
        self.newEvents = newEvents
    }

    /// Whether the command id had already been accepted, so nothing changed.
    public var isDuplicate: Bool { newEvents.isEmpty }
}
