import CourtsideWebSocket
import CourtsideWebSocketDeflate

/// One channel a socket is subscribed to, and the socket's index in that channel's subscriber list on its loop.
struct BroadcastSubscription {
    /// Strong: a channel lives while it has subscribers, even if the application dropped it.
    let channel: BroadcastChannel
    var index: Int
}

/// What became of a broadcast frame offered to one subscriber.
enum BroadcastOffer {
    /// Queued: `bytes` is the size of the variant queued, `compressed` whether it had RSV1.
    case queued(bytes: Int, compressed: Bool)
    /// Not queued: the frame would have taken the queue past the budget.
    case overBudget
    /// Not queued: the socket is closing.
    case closed
}

extension WebSocket {
    /// Offers one published message: picks this subscriber's variant (its deflate stream state, or the plain
    /// frame) and queues that shared array, tagged with the channel, unless the socket is closing or the frame
    /// would take its queue past the budget (a frame larger than the budget still goes out on an empty queue).
    func offer(_ message: BroadcastMessage, tag: UInt32) -> BroadcastOffer {
        guard acceptsBroadcastFrames else { return .closed }
        let buffered = connection.bufferedBytes
        let frame: [UInt8]
        if let deflate {
            frame = deflate.frame(for: message)
        } else {
            frame = message.uncompressed
        }
        if buffered > 0 && buffered + frame.count > sendBudgetBytes {
            // The frame was recorded as sent in the deflate stream state: it is not, so the subscriber's inflater
            // no longer follows the shared stream.
            deflate?.broadcastFrameDropped()
            return .overBudget
        }
        // Equivalent to the state machine's `sendFrame` (open checked above) without an actions array per
        // subscriber per publish.
        connection.write(frame, tag: tag)
        // RSV1 is bit 6 of the first byte (RFC 6455 §5.2, RFC 7692 §6).
        return .queued(bytes: frame.count, compressed: frame[0] & 0x40 != 0)
    }

    /// Takes back this channel's frames that have not started going out, after a budget overrun: returns how many
    /// frames and bytes were dropped. The deflate stream state is marked out of sync (those frames never reach the
    /// client's inflater).
    func dropUnstartedBroadcastFrames(tag: UInt32) -> (bytes: Int, chunks: Int) {
        deflate?.broadcastFrameDropped()
        return connection.dropUnstartedWrites(tag: tag)
    }
}
