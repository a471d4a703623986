import CourtsideWebSocket
import CourtsideWebSocketDeflate
import Synchronization

/// One message of a stream, encoded once however many subscribers take it: its UTF-8 text bytes, carried as bytes
/// to the sockets (no `String` on the way, no copy), with its WebSocket text frame built once (``frame``: what a
/// channel queues on every plain subscriber and what a catch-up sends), and its server-sent event (``serverSentEvent``)
/// made only when an event stream first asks for it, then kept.
///
/// Generic: the network core knows nothing of what the bytes say; `seq` is the stream's sequence number, the event's
/// `id`. Immutable apart from that one cache, and `Sendable`: the same value goes to every loop.
public final class EncodedMessage: Sendable {
    /// The stream's sequence number after this message (the server-sent event's `id`).
    public let seq: Int
    /// The text and its plain frame, as `BroadcastChannel.publish(_:)` takes them.
    public let payload: BroadcastPayload
    private let event = Mutex<[UInt8]?>(nil)

    /// A message of `text`, which must be one line of UTF-8 (canonical JSON is): checked once here, so no client
    /// fails the connection on it (RFC 6455 §5.6).
    public init(seq: Int, text: [UInt8]) throws(BroadcastPayloadError) {
        self.seq = seq
        self.payload = try BroadcastPayload(text: text)
    }

    /// The message's bytes.
    public var bytes: [UInt8] { payload.payload }

    /// The WebSocket text frame of the message.
    public var frame: [UInt8] { payload.frame }

    /// `id: <seq>\ndata: <text>\n\n` (WHATWG HTML, "Server-sent events", §9.2.5), made on the first call. The text
    /// is one line (canonical JSON has no whitespace between tokens, and a line break inside a string is always
    /// escaped, RFC 8259 §7), so the whole message is one `data:` field and needs none of `ServerSentEvent`'s line
    /// splitting.
    public var serverSentEvent: [UInt8] {
        event.withLock { cached in
            if let cached { return cached }
            let made = Self.serverSentEvent(id: seq, text: payload.payload)
            cached = made
            return made
        }
    }

    static func serverSentEvent(id: Int, text: [UInt8]) -> [UInt8] {
        assert(!text.contains(where: { $0 == 0x0A || $0 == 0x0D }), "an event's text is one line")
        var event: [UInt8] = []
        event.reserveCapacity(text.count + 32)
        event.append(contentsOf: "id: \(id)\ndata: ".utf8)
        event.append(contentsOf: text)
        event.append(contentsOf: "\n\n".utf8)
        return event
    }
}
