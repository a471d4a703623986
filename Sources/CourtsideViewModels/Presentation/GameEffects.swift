import CourtsideBytes
import CourtsideModel

/// Everything one batch did, as a value (`GamePresenter`'s `apply…` methods): the events to journal, the reply owed
/// to the command's sender (nil for a tick or a stored batch), and the patch message to publish (nil when nothing
/// shown changed). The owner performs them in that order: publish, journal, answer once durable.
public struct GameEffects: Equatable, Sendable {
    public let events: [GameEvent]
    public let reply: CommandReply?
    public let patch: EncodedMessage?

    public init(events: [GameEvent], reply: CommandReply?, patch: EncodedMessage?) {
        self.events = events
        self.reply = reply
        self.patch = patch
    }
}
