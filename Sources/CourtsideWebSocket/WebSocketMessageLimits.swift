/// How large a received message may be on one connection. A route sets them at the upgrade (a scorer's
/// commands are a few hundred bytes; a spectator sends nothing it needs), and may change them later (tighter
/// before authentication): the limit in force when a frame's header arrives is the one applied to it.
///
/// Both are refused with 1009 (RFC 6455 §7.4.1). Control frames are bounded by the protocol (125 bytes,
/// RFC 6455 §5.5) and are not counted.
public struct WebSocketMessageLimits: Sendable, Hashable {
    /// The largest message on the wire (compressed or not), summed over its fragments, checked as each frame
    /// header arrives, before its payload is read.
    public var maxMessageBytes: Int
    /// The largest message after permessage-deflate inflated it; inflation stops the moment it passes this.
    public var maxInflatedMessageBytes: Int

    public init(maxMessageBytes: Int, maxInflatedMessageBytes: Int) {
        precondition(maxMessageBytes >= 0 && maxInflatedMessageBytes >= 0, "negative message limit")
        self.maxMessageBytes = maxMessageBytes
        self.maxInflatedMessageBytes = maxInflatedMessageBytes
    }

    /// The same limit before and after inflation.
    public init(maxMessageBytes: Int) {
        self.init(maxMessageBytes: maxMessageBytes, maxInflatedMessageBytes: maxMessageBytes)
    }
}
