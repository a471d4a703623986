import CourtsideNet
import CourtsideViewModels

/// One message of a game or lobby feed, encoded once for every subscriber on every loop: the presenter's JSON, its
/// WebSocket text frame, and its server-sent event (`id: <seq>`, `data: <json>`).
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

/// Something on a loop that receives a feed's messages: a spectator, scorer or lobby socket, or an event stream.
/// Called on the subscriber's loop only.
protocol FeedSubscriber: AnyObject {
    /// Whether the subscriber still wants messages (its connection is open).
    var isOpen: Bool { get }
    /// Queues `message`; returns false when the subscriber fell behind and must leave the feed (it then brings
    /// itself back with a fresh snapshot, or closes).
    func receive(_ message: FeedMessage) -> Bool
}
