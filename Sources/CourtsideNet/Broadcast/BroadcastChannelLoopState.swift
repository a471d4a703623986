import CourtsideWebSocketDeflate

/// One channel's subscribers on one loop, and the fan-out of a published message to them. Loop-confined (held
/// through a `LoopBound`), so the list needs no lock.
final class BroadcastChannelLoopState {
    /// In no particular order: removal moves the last subscriber into the gap (see `BroadcastChannel.remove`).
    var subscribers: [WebSocket] = []

    /// Queues `message` on every subscriber; applies the slow-consumer policy to those over budget; counts.
    func deliver(_ message: BroadcastMessage, channel: BroadcastChannel) {
        var frames = 0
        var compressedFrames = 0
        var bytes = 0
        var needResync: [WebSocket] = []
        var index = 0
        while index < subscribers.count {
            let socket = subscribers[index]
            switch socket.offer(message, tag: channel.tag) {
            case .queued(let size, let compressed):
                frames += 1
                bytes += size
                if compressed { compressedFrames += 1 }
                index += 1
            case .closed:
                channel.remove(socket)  // the last subscriber moved to `index`: look at it next
            case .overBudget:
                // The refused frame counts as dropped too.
                if channel.dropSlowConsumer(socket, policy: channel.policy, refusedBytes: message.uncompressed.count) {
                    needResync.append(socket)
                }
            }
        }
        channel.counters.recordDelivery(frames: frames, compressedFrames: compressedFrames, bytes: bytes)
        // After the fan-out, so the hook (which may re-subscribe, or publish) never runs inside the list walk.
        for socket in needResync {
            socket.handler?.webSocketNeedsResync(socket, channel: channel)
        }
    }
}

@available(*, unavailable)
extension BroadcastChannelLoopState: Sendable {}
