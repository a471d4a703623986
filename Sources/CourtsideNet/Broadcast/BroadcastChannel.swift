import CourtsideBytes
import CourtsideWebSocket
import CourtsideWebSocketDeflate
import Synchronization

/// Publishes messages to many WebSockets on every loop of a server: each message is encoded (and compressed)
/// once, and the same immutable frames go to every subscriber, with no per-subscriber copy, encoding, lock or actor
/// hop.
///
/// **Fan-out.** `publish` encodes the message under the channel's lock (one `BroadcastEncoder`: the plain frame and
/// one shared-context deflate stream per agreed `server_max_window_bits` among the subscribers), then submits one
/// `execute` per other loop carrying the `Sendable` `BroadcastMessage`; the publisher's own loop, if it is one of
/// the group's, is served synchronously inside `publish`. Each loop walks its own subscriber list (loop-confined,
/// no lock) and queues on each socket the array its deflate state selects (`PerMessageDeflateConnection`), or the
/// plain frame.
///
/// **Ordering guarantee.** Tasks a thread submits to a loop run in submission order, and a publish reaches each
/// other loop as one such task, so: when a thread P publishes and also submits `loop.execute { … }` tasks to loop
/// L, they run on L in the order P submitted them, and a publish from P's own loop is delivered there before
/// `publish` returns. A spectator can therefore be joined gap-free from the publisher's loop: take the snapshot,
/// then `spectatorLoop.execute { socket.send(snapshot); channel.subscribe(socket) }` (or do both directly when the
/// spectator is on the publisher's loop): it gets no message published before and every message published after.
/// Publish a channel from one thread for one total order; concurrent publishes from several threads are each
/// delivered whole (and decodable) everywhere, but their relative order may differ between loops.
///
/// **Sync points.** The compressors live on the publisher's side. A subscriber that joins (or re-joins after a
/// resync) is not in sync with the shared stream: `subscribe` sets an atomic flag, and the next `publish` asks every
/// compressor for a sync point (granted under the compressor's policy, docs/deflate.md); until then the subscriber
/// gets no-context or plain frames, which decode whatever its inflater holds (RFC 7692 §6, §7.2.2).
///
/// **Backpressure.** A frame that would take a subscriber's queue past its budget
/// (`HTTPServer.Configuration.webSocketSendBudgetBytes`) is not queued, the subscriber's frames of this channel
/// that have not started going out are dropped, it is unsubscribed, and the `SlowConsumerPolicy` applies. Memory per
/// subscriber is thus bounded by its budget plus one frame, and the others are not slowed. Counted in `statistics`.
public final class BroadcastChannel: Sendable {
    /// What happens to a subscriber that falls a whole budget behind.
    public enum SlowConsumerPolicy: Sendable, Hashable {
        /// Close it with this code and reason: 1008 (`.policyViolation`) or 1013 (`.unknown(1013)`, try again
        /// later).
        case close(code: WebSocketCloseCode, reason: String)
        /// Drop its backlog of this channel's frames, unsubscribe it, mark its deflate broadcast state out of sync,
        /// and call `WebSocketHandler.webSocketNeedsResync(_:channel:)` on its loop: the application re-joins it
        /// with a fresh snapshot.
        case resync
    }

    /// Running totals since the channel was made (read from any thread; each field is read atomically, the set
    /// is not one snapshot).
    public struct Statistics: Sendable, Hashable {
        /// Subscribers now, on every loop.
        public var subscribers = 0
        /// Messages published.
        public var messagesPublished = 0
        /// Frames queued on subscribers (one per subscriber per message).
        public var framesQueued = 0
        /// Of those, compressed ones (RSV1).
        public var compressedFramesQueued = 0
        /// Bytes of the frames queued (what goes on the wire, before TLS).
        public var bytesQueued = 0
        /// Subscribers closed by the `.close` policy.
        public var slowConsumersClosed = 0
        /// Subscribers unsubscribed for a resync by the `.resync` policy.
        public var slowConsumersResynced = 0
        /// Frames not delivered because of a budget overrun: the one refused, plus those taken back from the queue.
        public var framesDropped = 0
        /// Bytes of those frames.
        public var bytesDropped = 0
    }

    /// The slow-consumer policy.
    public let policy: SlowConsumerPolicy
    /// The loops the channel fans out to (a server's group).
    public let loops: [EventLoop]
    /// Tags this channel's frames in write queues, so a slow subscriber's backlog of them can be taken back;
    /// unique in the process, never 0.
    let tag: UInt32
    /// Indexed like `loops`; each touched only on its loop.
    private let loopStates: [LoopBound<BroadcastChannelLoopState>]
    /// The publisher's side: the plain frame and the compressors. One lock per publish, never per subscriber.
    private let encoder: LockedValue<BroadcastEncoder>
    /// Set by `subscribe` for a deflate subscriber; the next publish turns it into a sync point request.
    private let syncPointRequested = Atomic<Bool>(false)
    let counters = BroadcastChannelCounters()

    /// A channel fanning out to every loop of `server`.
    public convenience init(
        server: HTTPServer, policy: SlowConsumerPolicy = .resync,
        compressor: BroadcastCompressor.Configuration = BroadcastCompressor.Configuration()
    ) {
        self.init(group: server.group, policy: policy, compressor: compressor)
    }

    /// A channel fanning out to every loop of `group`.
    public init(
        group: EventLoopGroup, policy: SlowConsumerPolicy = .resync,
        compressor: BroadcastCompressor.Configuration = BroadcastCompressor.Configuration()
    ) {
        self.policy = policy
        self.loops = group.loops
        self.loopStates = group.loops.map { LoopBound(BroadcastChannelLoopState(), loop: $0) }
        self.encoder = LockedValue(BroadcastEncoder(configuration: compressor))
        self.tag = nextBroadcastChannelTag()
    }

    // MARK: publishing (any thread)

    /// Sends `message` (text or binary) to every subscriber on every loop; see the ordering guarantee above.
    public func publish(_ message: WebSocketMessage) {
        publish(
            payload: message.payload, opcode: message.opcode,
            frame: WebSocketFrameEncoder.frame(opcode: message.opcode, payload: message.payload))
    }

    /// Sends a message encoded once (`EncodedMessage`: its bytes, and its text frame built once on first need):
    /// plain subscribers get that very frame, and only the compressed variants are made here (once per agreed
    /// window). Same ordering guarantee as above.
    public func publish(_ message: EncodedMessage) {
        publish(payload: message.bytes, opcode: .text, frame: message.frame)
    }

    /// A message as its payload and its plain frame, built once by the caller.
    private func publish(payload: [UInt8], opcode: WebSocketOpcode, frame: [UInt8]) {
        let demand = counters.demand()
        var localIndex: Int?
        let encoded = encoder.withLock { encoder -> BroadcastMessage in
            if syncPointRequested.exchange(false, ordering: .acquiringAndReleasing) { encoder.requestSyncPoint() }
            let encoded = encoder.encode(
                payload: payload, opcode: opcode, frame: frame, demand: demand, now: LoopClock.now())
            // Submitted under the lock, so concurrent publishers reach the other loops in one order.
            for (index, loop) in loops.enumerated() {
                if loop.inEventLoop {
                    localIndex = index
                    continue
                }
                let state = loopStates[index]
                loop.execute { [self] _ in state.value.deliver(encoded, channel: self) }
            }
            return encoded
        }
        counters.messagesPublished.add(1, ordering: .relaxed)
        if let localIndex {
            loopStates[localIndex].value.deliver(encoded, channel: self)
        }
    }

    /// Sends a text message.
    public func publish(text: String) {
        publish(.text(text))
    }

    // MARK: subscribers (the socket's loop)

    /// Adds `socket`: it receives every message published after this call (see the ordering guarantee). Call on
    /// the socket's loop. Does nothing if it is already subscribed or closing. A subscriber is removed by
    /// `unsubscribe`, when it closes, or by the slow-consumer policy.
    public func subscribe(_ socket: WebSocket) {
        let state = loopState(for: socket)
        guard socket.acceptsBroadcastFrames, !isSubscribed(socket) else { return }
        socket.subscriptions.append(BroadcastSubscription(channel: self, index: state.subscribers.count))
        state.subscribers.append(socket)
        counters.subscribers.add(1, ordering: .relaxed)
        if let parameters = socket.perMessageDeflate {
            counters.addDeflateSubscriber(parameters, delta: 1)
            // Its inflater is not in sync with the shared stream: ask the publisher's side for a sync point.
            syncPointRequested.store(true, ordering: .releasing)
        }
    }

    /// Removes `socket`; nothing published after this call reaches it. Call on the socket's loop.
    public func unsubscribe(_ socket: WebSocket) {
        _ = loopState(for: socket)
        remove(socket)
    }

    /// Resyncs `socket` now, as the `.resync` policy does for a slow consumer (whatever the channel's policy): its
    /// frames of this channel that have not started going out are dropped, it is unsubscribed, its deflate state
    /// marked out of sync, and `webSocketNeedsResync(_:channel:)` is called before this returns. Call on the
    /// socket's loop; does nothing if it is not subscribed.
    public func resync(_ socket: WebSocket) {
        _ = loopState(for: socket)
        guard isSubscribed(socket) else { return }
        if dropSlowConsumer(socket, policy: .resync, refusedBytes: nil) {
            socket.handler?.webSocketNeedsResync(socket, channel: self)
        }
    }

    /// Whether `socket` is subscribed. Call on the socket's loop.
    public func isSubscribed(_ socket: WebSocket) -> Bool {
        socket.eventLoop.assertInEventLoop()
        return socket.subscriptions.position(of: self) != nil
    }

    /// Subscribers on the calling loop (call on one of the channel's loops).
    public var localSubscriberCount: Int {
        guard let index = loops.firstIndex(where: { $0.inEventLoop }) else {
            preconditionFailure("Invalid state: localSubscriberCount called off the channel's loops")
        }
        return loopStates[index].value.subscribers.count
    }

    // MARK: metrics (any thread)

    /// The running totals.
    public var statistics: Statistics { counters.snapshot() }

    /// What zlib holds for this channel's compressors.
    public var memoryUsage: ZlibMemoryUsage { encoder.withLock { $0.memoryUsage } }

    // MARK: internals

    private func loopState(for socket: WebSocket) -> BroadcastChannelLoopState {
        let index = socket.eventLoop.index
        precondition(
            index < loops.count && loops[index] === socket.eventLoop, "the socket's loop is not the channel's group")
        return loopStates[index].value
    }

    /// Applies `policy` to a subscriber that fell a budget behind (or is resynced on request): drops its unsent
    /// frames of this channel, unsubscribes it, counts, and closes it or returns true (call the resync hook once the
    /// fan-out in progress is done). `refusedBytes` is the frame that did not fit, if any.
    func dropSlowConsumer(_ socket: WebSocket, policy: SlowConsumerPolicy, refusedBytes: Int?) -> Bool {
        let dropped = socket.dropUnstartedBroadcastFrames(tag: tag)
        remove(socket)
        counters.recordSlowConsumer(
            policy: policy, framesDropped: dropped.chunks + (refusedBytes == nil ? 0 : 1),
            bytesDropped: dropped.bytes + (refusedBytes ?? 0))
        switch policy {
        case .resync:
            return true
        case .close(let code, let reason):
            socket.close(code: code, reason: reason)
            return false
        }
    }

    /// Removes `socket` from its loop's list (O(1): the last subscriber takes its place). On the socket's loop.
    func remove(_ socket: WebSocket) {
        guard let position = socket.subscriptions.position(of: self) else { return }
        let index = socket.subscriptions[position].index
        socket.subscriptions.remove(at: position)
        let state = loopStates[socket.eventLoop.index].value
        let last = state.subscribers.removeLast()
        if index < state.subscribers.count {
            state.subscribers[index] = last
            guard let moved = last.subscriptions.position(of: self) else {
                preconditionFailure("Invalid state: a listed subscriber without its subscription")
            }
            last.subscriptions[moved].index = index
        }
        counters.subscribers.subtract(1, ordering: .relaxed)
        if let parameters = socket.perMessageDeflate {
            counters.addDeflateSubscriber(parameters, delta: -1)
        }
    }
}

/// Channel tags, unique across the process (0 marks writes that are never dropped).
private let broadcastChannelTags = Atomic<UInt32>(0)

private func nextBroadcastChannelTag() -> UInt32 {
    while true {
        let tag = broadcastChannelTags.wrappingAdd(1, ordering: .relaxed).newValue
        if tag != 0 { return tag }
    }
}
