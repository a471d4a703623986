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
