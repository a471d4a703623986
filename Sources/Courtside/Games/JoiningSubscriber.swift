import CourtsideBytes
import CourtsideNet

/// Something an owner can join to its document: a spectator, scorer or lobby socket, or an event stream (an object,
/// or a value naming a socket and the handler it shares with others, `GameSpectators`). Called on the subscriber's
/// loop only.
protocol JoiningSubscriber {
    /// Whether the subscriber is an event stream (the feed counts those before the join; see `GameFeed`).
    var isEventStream: Bool { get }
    /// Queues `catchUp` (a snapshot, or the patches it missed) and subscribes to `feed`, on its loop. Called in
    /// order with the feed's publishes, so nothing is missed or repeated.
    func join(catchUp: [EncodedMessage], feed: GameFeed, context: LoopContext)
}
