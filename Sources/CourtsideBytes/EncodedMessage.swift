import Synchronization

/// One message of a document stream (a snapshot or a patch of a game, court or lobby document), encoded once however
/// many subscribers take it: the presenter makes its canonical JSON bytes, and the network sends that very array,
/// with no `String`, copy or second encoding on the way.
///
/// The forms a transport sends (a WebSocket text frame, a server-sent event) are made by the layer that knows them,
/// on the first call for that form, and kept here: a frame is built once per message, not per subscriber, and an
/// event-stream form is made only when an event stream asks for it. This module sits beneath the view models and the
/// network core alike (it imports nothing of either), so neither wraps the other's message.
///
/// Immutable apart from those caches, and `Sendable`: the same value goes to every loop.
public final class EncodedMessage: Sendable {
    /// Snapshot (the whole document) or patch (the RFC 6902 operations from `seq - 1` to `seq`).
    public enum Kind: Hashable, Sendable {
        case snapshot
        case patch
    }

    /// A form of the message that a transport sends, made by that transport's layer and kept.
    public enum Form: Hashable, Sendable {
        /// The WebSocket text frame (RFC 6455 §5.2): what a channel queues on every plain subscriber and what a
        /// catch-up sends.
        case webSocketFrame
        /// The server-sent event (`id: <seq>`, `data: <text>`).
        case serverSentEvent
    }

    public let kind: Kind
    /// The document's sequence number after this message (a server-sent event's `id`).
    public let seq: Int
    /// The canonical JSON encoding of the whole message: UTF-8 and one line.
    public let bytes: [UInt8]
    private let forms = Mutex<Forms>(Forms())

    /// A message of `bytes`, which must be one line of UTF-8 (canonical JSON is): the layer that frames it checks.
    public init(kind: Kind, seq: Int, bytes: [UInt8]) {
        self.kind = kind
        self.seq = seq
        self.bytes = bytes
    }

    /// The message as text (for logs and tests; the network sends `bytes`).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The message in `form`: made by `make` from this message on the first call for that form (under a lock, so
    /// concurrent first callers get one array), then the same array on every later call.
    public func form(_ form: Form, orMake make: (EncodedMessage) -> [UInt8]) -> [UInt8] {
        forms.withLock { forms in
            if let made = forms[form] { return made }
            let made = make(self)
            forms[form] = made
            return made
        }
    }
}

extension EncodedMessage: Equatable {
    /// Equal messages say the same thing: kind, `seq` and bytes (the forms follow from them).
    public static func == (lhs: EncodedMessage, rhs: EncodedMessage) -> Bool {
        lhs.kind == rhs.kind && lhs.seq == rhs.seq && lhs.bytes == rhs.bytes
    }
}

/// The forms made so far: one slot each, so no dictionary per message.
private struct Forms {
    var webSocketFrame: [UInt8]?
    var serverSentEvent: [UInt8]?

    subscript(form: EncodedMessage.Form) -> [UInt8]? {
        get {
            switch form {
            case .webSocketFrame: webSocketFrame
            case .serverSentEvent: serverSentEvent
            }
        }
        set {
            switch form {
            case .webSocketFrame: webSocketFrame = newValue
            case .serverSentEvent: serverSentEvent = newValue
            }
        }
    }
}
