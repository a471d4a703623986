/// Why a relay message could not be read (docs/relay.md, "The connection"). Each case names the field and the
/// numbers, so the close reason says what the peer got wrong.
public enum RelayWireError: Error, Sendable, Hashable {
    /// The message is larger than the relay's message limit.
    case tooLarge(bytes: Int, limit: Int)
    /// A binary message ended inside `field`: `needed` bytes, `remaining` left.
    case truncated(field: String, needed: Int, remaining: Int)
    /// Bytes after the last entry of a binary message.
    case trailingBytes(Int)
    /// A binary message whose first byte is not a known kind (`0x01`, entries).
    case unknownBinaryKind(UInt8)
    /// A text message that is not a JSON object of the expected shape.
    case malformedJSON(reason: String)
    /// A text message whose `type` is not a relay message (or one that travels only as a binary frame).
    case unknownType(String)
    /// A required field of `type` is missing or has the wrong type.
    case missingField(type: String, field: String)
    /// A game id that is empty, longer than 255 UTF-8 bytes, or not UTF-8.
    case invalidGameID
    /// A `seq` (or `head`, `stored`, `from`) below 0, or above what 8 bytes hold.
    case invalidSequence(field: String, value: Int)
    /// An `entries` message with no entry, or entries whose `seq`s are not consecutive.
    case invalidBatch(reason: String)
}
