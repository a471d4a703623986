import CourtsideWebSocketDeflate
import Synchronization

/// A channel's counters, readable from any thread: the metrics totals, and how many deflate subscribers each
/// agreed window has (which tells the publisher which compressors to run). Each loop adds its totals once per
/// published message, not once per subscriber, so the counters cost no contention on the fan-out path.
final class BroadcastChannelCounters: Sendable {
    let subscribers = Atomic<Int>(0)
    let messagesPublished = Atomic<Int>(0)
    let framesQueued = Atomic<Int>(0)
    let compressedFramesQueued = Atomic<Int>(0)
    let bytesQueued = Atomic<Int>(0)
    let slowConsumersClosed = Atomic<Int>(0)
    let slowConsumersResynced = Atomic<Int>(0)
    let framesDropped = Atomic<Int>(0)
    let bytesDropped = Atomic<Int>(0)
    /// Deflate subscribers per agreed `server_max_window_bits` (index `bits - 8`).
    private let windowSubscribers: [Counter] = (8...15).map { _ in Counter() }
    /// Of those, the ones that agreed `server_no_context_takeover`.
    private let noContextSubscribers: [Counter] = (8...15).map { _ in Counter() }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    func addDeflateSubscriber(_ parameters: PerMessageDeflateParameters, delta: Int) {
        let slot = parameters.serverMaxWindowBits - 8
        windowSubscribers[slot].value.add(delta, ordering: .relaxed)
        if parameters.serverNoContextTakeover { noContextSubscribers[slot].value.add(delta, ordering: .relaxed) }
    }

    /// The windows the next message must be compressed for. A subscriber joining concurrently may be missed; it
    /// then gets the plain frame, which is always valid.
    func demand() -> BroadcastDemand {
        var demand = BroadcastDemand()
        for windowBits in 8...15 where windowSubscribers[windowBits - 8].value.load(ordering: .relaxed) > 0 {
            demand.insert(
                windowBits: windowBits,
                noContext: noContextSubscribers[windowBits - 8].value.load(ordering: .relaxed) > 0)
        }
        return demand
    }

    /// One loop's results for one published message.
    func recordDelivery(frames: Int, compressedFrames: Int, bytes: Int) {
        guard frames > 0 else { return }
        framesQueued.add(frames, ordering: .relaxed)
        if compressedFrames > 0 { compressedFramesQueued.add(compressedFrames, ordering: .relaxed) }
        bytesQueued.add(bytes, ordering: .relaxed)
    }

    func recordSlowConsumer(policy: BroadcastChannel.SlowConsumerPolicy, framesDropped: Int, bytesDropped: Int) {
        switch policy {
        case .close: slowConsumersClosed.add(1, ordering: .relaxed)
        case .resync: slowConsumersResynced.add(1, ordering: .relaxed)
        }
        self.framesDropped.add(framesDropped, ordering: .relaxed)
        self.bytesDropped.add(bytesDropped, ordering: .relaxed)
    }

    func snapshot() -> BroadcastChannel.Statistics {
        var statistics = BroadcastChannel.Statistics()
        statistics.subscribers = subscribers.load(ordering: .relaxed)
        statistics.messagesPublished = messagesPublished.load(ordering: .relaxed)
        statistics.framesQueued = framesQueued.load(ordering: .relaxed)
        statistics.compressedFramesQueued = compressedFramesQueued.load(ordering: .relaxed)
        statistics.bytesQueued = bytesQueued.load(ordering: .relaxed)
        statistics.slowConsumersClosed = slowConsumersClosed.load(ordering: .relaxed)
        statistics.slowConsumersResynced = slowConsumersResynced.load(ordering: .relaxed)
        statistics.framesDropped = framesDropped.load(ordering: .relaxed)
        statistics.bytesDropped = bytesDropped.load(ordering: .relaxed)
        return statistics
    }
}
