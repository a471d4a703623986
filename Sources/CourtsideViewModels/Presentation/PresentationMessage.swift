/// One message of a document stream, encoded once: the network frames `bytes` and sends the same array to every
/// subscriber.
public struct PresentationMessage: Equatable, Sendable {
    /// Snapshot (the whole document) or patch (the RFC 6902 operations from `seq - 1` to `seq`).
    public enum Kind: Equatable, Sendable {
        case snapshot
        case patch
    }

    public let kind: Kind
    /// The document's sequence number after this message.
    public let seq: Int
    /// The canonical JSON encoding of the whole message.
    public let bytes: [UInt8]

    /// The message as text (for logs and tests; the network sends `bytes`).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
