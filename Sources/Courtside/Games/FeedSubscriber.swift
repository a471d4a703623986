import CourtsideNet
import CourtsideViewModels

/// One message of a game or lobby document, encoded once however many subscribers take it: the presenter's JSON,
/// its WebSocket text frame, and its server-sent event (`id: <seq>`, `data: <json>`).
final class FeedMessage: Sendable {
    let message: PresentationMessage
    let frame: [UInt8]
    let event: [UInt8]

    init(_ message: PresentationMessage) {
        self.message = message
        self.frame = WebSocketFrameEncoder.frame(opcode: .text, payload: message.bytes)
        self.event = ServerSentEvent(id: String(message.seq), data: message.text).encoded
    }
}

/// Something an owner can join to its document: a spectator, scorer or lobby socket, or an event stream.
/// Called on the subscriber's loop only.
protocol JoiningSubscriber: AnyObject {
    /// Whether the subscriber is an event stream (the feed counts those before the join; see `GameFeed`).
    var isEventStream: Bool { get }
    /// Queues `catchUp` (a snapshot, or the patches it missed) and subscribes to `feed`, on its loop. Called in
    /// order with the feed's publishes, so nothing is missed or repeated.
    func join(catchUp: [FeedMessage], feed: GameFeed, context: LoopContext)
}
