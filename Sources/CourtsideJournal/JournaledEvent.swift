import CourtsideModel

/// A game event as the journal stores it: the model's event plus the presentation sequence number, the `seq` of the
/// patch message that first showed it to subscribers.
///
/// Storing the presentation sequence lets a restarted server continue its patch stream with the numbers it used
/// before, so a spectator resuming with `since=N` (or an SSE `Last-Event-ID`) continues correctly. Several events
/// may share one presentation sequence (a `timeLimitReached` and the move that revealed it go out in one message),
/// so within a game it never decreases but may repeat.
public struct JournaledEvent: Sendable, Hashable {
    public let event: GameEvent
    /// The server's patch `seq` of the message that first showed `event`; never negative.
    public let presentationSequence: Int

    public init(_ event: GameEvent, presentationSequence: Int) {
        self.event = event
        self.presentationSequence = presentationSequence
    }
}
