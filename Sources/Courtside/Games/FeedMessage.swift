import CourtsideNet
import CourtsideViewModels

/// One message of a game, court or lobby document, encoded once however many subscribers take it: the presenter's
/// JSON bytes, carried as bytes to the sockets (no `String` on the way, no copy), with its WebSocket text frame
/// built once (`broadcast.frame`: what the channel queues on every plain subscriber and what a catch-up sends), and
/// its server-sent event (`id: <seq>`, `data: <json>`).
final class FeedMessage: Sendable {
    let message: PresentationMessage
    /// The JSON and its plain frame, as `BroadcastChannel.publish(_:)` takes them.
    let broadcast: BroadcastPayload
    let event: [UInt8]

    /// The WebSocket text frame of the message.
    var frame: [UInt8] { broadcast.frame }

    init(_ message: PresentationMessage) {
        self.message = message
        do {
            broadcast = try BroadcastPayload(text: message.bytes)
        } catch {
            // The presenters encode canonical JSON from Swift strings, which is always UTF-8.
            preconditionFailure("Invalid state: a presentation message that is not UTF-8 (\(error))")
        }
        event = Self.serverSentEvent(id: message.seq, json: message.bytes)
    }

    /// `id: <seq>\ndata: <json>\n\n` (WHATWG HTML, "Server-sent events", §9.2.5), built from the bytes. Canonical
    /// JSON is one line: it has no whitespace between tokens, and a line break inside a string is always escaped
    /// (RFC 8259 §7), so the whole message is one `data:` field and needs none of `ServerSentEvent`'s line splitting.
    static func serverSentEvent(id: Int, json: [UInt8]) -> [UInt8] {
        assert(!json.contains(where: { $0 == 0x0A || $0 == 0x0D }), "canonical JSON has no line breaks")
        var event: [UInt8] = []
        event.reserveCapacity(json.count + 32)
        event.append(contentsOf: "id: \(id)\ndata: ".utf8)
        event.append(contentsOf: json)
        event.append(contentsOf: "\n\n".utf8)
        return event
    }
}
