/// What one subscriber's inflater holds, as far as the broadcast stream is concerned: 16 bytes per
/// connection, no zlib stream.
///
/// A subscriber is *in sync* when its inflater has inflated every compressed message of one
/// ``BroadcastCompressor`` stream since that stream's last sync point, and nothing else compressed since:
/// its window then equals the compressor's, so the shared frames decode. Otherwise it is *waiting*: it gets
/// frames that decode whatever its window holds (no-context or uncompressed) until the next sync point.
///
/// Keep one per connection, not per channel: a connection has one inflater, so compressed messages from
/// another channel or from the connection itself put it out of sync (``PerMessageDeflateConnection`` does
/// this bookkeeping).
public struct BroadcastSubscriberState: Sendable, Hashable {
    /// The stream the subscriber is in sync with; 0 while waiting.
    private var streamID: UInt32 = 0
    /// The agreed `server_no_context_takeover`: such a subscriber never takes shared-context frames.
    public let serverNoContextTakeover: Bool
    /// The sequence number of the next message the subscriber must get to stay in sync.
    private var nextSequence: UInt64 = 0

    public init(serverNoContextTakeover: Bool = false) {
        self.serverNoContextTakeover = serverNoContextTakeover
    }

    /// Whether the subscriber takes shared frames (it joined at a sync point and missed nothing since).
    public var isInSync: Bool { streamID != 0 }

    /// Chooses the frame to send and records that it was sent. Call it only for a frame that will be queued;
    /// if the frame is then dropped (backpressure), call ``markOutOfSync()``. A message that was never offered
    /// (a gap in the sequence) is noticed here and puts the subscriber out of sync by itself.
    public mutating func select(_ frames: BroadcastFrames) -> BroadcastFrameVariant {
        let followsStream = streamID == frames.streamID && nextSequence == frames.sequence
        guard frames.shared != nil else {
            // Sent plain to everyone: no inflater is touched, so the subscriber keeps its place.
            if followsStream { nextSequence += 1 }
            return .uncompressed
        }
        if !serverNoContextTakeover && (followsStream || frames.isSyncPoint) {
            streamID = frames.streamID
            nextSequence = frames.sequence + 1
            return .shared
        }
        // Waiting: a no-context frame decodes whatever the inflater holds, and leaves it waiting.
        streamID = 0
        return frames.noContext != nil ? .noContext : .uncompressed
    }

    /// The subscriber missed a compressed message of its stream (dropped by backpressure), or its inflater
    /// took a compressed message from elsewhere: it waits for the next sync point.
    public mutating func markOutOfSync() {
        streamID = 0
    }
}
