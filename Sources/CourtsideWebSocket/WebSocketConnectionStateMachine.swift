import CourtsideHTTP

/// One WebSocket connection after the handshake (RFC 6455 §5–§7), as a value that takes events (bytes
/// received, a message to send, a close request, a timer) and returns ``WebSocketAction``s. It does no I/O and
/// reads no clock: every event carries `now`.
///
/// Handles fragmentation with interleaved control frames (§5.4), UTF-8 validation of text as it arrives
/// (§8.1, failing fast with 1007), the message size limit (1009), ping → pong (§5.5.2), idle pings and dead
/// peers, and the close handshake (§5.5.1, §7) with its timeout. Each protocol error queues a close frame with
/// the code from ``WebSocketProtocolError/closeCode`` and closes the transport at once (§7.1.7): the stream
/// cannot be trusted to carry the peer's close frame after an error.
///
/// Not enforced here: the handshake (``WebSocketHandshake``) and any send-side backpressure (the owner's write
/// queue).
public struct WebSocketConnectionStateMachine {
    public typealias Instant = ContinuousClock.Instant

    /// Limits and timings: the same for every connection of a server, so held once and shared (an idle socket's
    /// machine would otherwise carry its own ~80-byte copy; docs/benchmarks.md, "Idle memory").
    public var configuration: Configuration { sharedConfiguration.value }
    let sharedConfiguration: ConfigurationBox

    @usableFromInline
    enum State {
        /// Messages flow both ways.
        case open
        /// We sent a close frame and wait for the peer's until the deadline (RFC 6455 §7.1.1).
        case closeSent(deadline: CompactInstant)
        /// The transport is being closed; nothing more happens.
        case closed
    }

    /// A fragmented message whose first frame has arrived and whose final frame has not (RFC 6455 §5.4).
    struct FragmentedMessage {
        var opcode: WebSocketOpcode
        var compressed: Bool
        var payload: [UInt8]
    }

    @usableFromInline var state: State = .open
    // The one-byte fields follow `state` (9 bytes) so they share its padding: Swift lays fields out in the order
    // they are declared, and this struct lives in every socket (docs/benchmarks.md, "Idle memory").
    /// Validates the current text message's payload as it arrives, across frames and reads.
    var textValidator = UTF8Validator()
    /// Whether frames of the current data message are validated as UTF-8 on arrival (uncompressed text).
    var validatingText = false
    /// Whether the header of the frame still arriving has been checked (it is checked once, when first seen).
    var frameInProgressChecked = false
    /// Whether received bytes wait in the decoder because the last call reached its frame limit.
    public private(set) var hasPendingFrames = false
    var decoder: WebSocketFrameDecoder
    /// The negotiated extension, if any. Boxed (copy on write): a machine without one, which is most, holds 8 bytes
    /// instead of a 40-byte existential (docs/benchmarks.md, "Idle memory").
    var messageExtension: (any WebSocketMessageExtension)? {
        get { extensionBox?.value }
        set {
            guard let newValue else {
                extensionBox = nil
                return
            }
            if extensionBox != nil, isKnownUniquelyReferenced(&extensionBox!) {
                extensionBox!.value = newValue
            } else {
                extensionBox = ExtensionBox(newValue)
            }
        }
    }
    private var extensionBox: ExtensionBox?
    /// A fragmented message and the UTF-8 validation offsets, out of line and made only when a message needs them
    /// (`WebSocketConnectionStateMachine+MessageInProgress.swift`): an idle subscriber never sends one.
    var messageInProgress: MessageInProgress?

    private final class ExtensionBox {
        var value: any WebSocketMessageExtension

        init(_ value: any WebSocketMessageExtension) {
            self.value = value
        }
    }

    /// When bytes last arrived. Deadlines are stored compact (8 bytes each, not 16–17; `CompactInstant`) and
    /// read through the `Instant` properties below.
    private var lastReceivedAt: CompactInstant
    var lastReceived: Instant {
        get { lastReceivedAt.instant! }
        set { lastReceivedAt = CompactInstant(newValue) }
    }
    /// The message size limits in force: ``Configuration/maxMessageBytes`` at first, then whatever the owner sets
    /// (a route's limits at the upgrade, tighter ones before authentication).
    public var limits: WebSocketMessageLimits
    /// When the outstanding idle ping was sent; `.none` if none.
    private var pingSentAtCompact = CompactInstant.none
    var pingSentAt: Instant? {
        get { pingSentAtCompact.instant }
        set { pingSentAtCompact = CompactInstant(newValue) }
    }
    /// The deadline the owner's timer is set for, as far as we told it; `.none` if none.
    private var scheduledDeadlineCompact = CompactInstant.none
    var scheduledDeadline: Instant? {
        get { scheduledDeadlineCompact.instant }
        set { scheduledDeadlineCompact = CompactInstant(newValue) }
    }

    /// A connection that has just completed its handshake at `now`.
    ///
    /// - Parameter messageExtension: the negotiated message extension (permessage-deflate), if any; its
    ///   reserved bits become legal on received frames.
    public init(
        configuration: Configuration = .server, messageExtension: (any WebSocketMessageExtension)? = nil,
        now: Instant
    ) {
        self.init(shared: ConfigurationBox(configuration), messageExtension: messageExtension, now: now)
    }

    /// A connection whose configuration is held by `shared`, which a server makes once for all its connections.
    public init(
        shared: ConfigurationBox, messageExtension: (any WebSocketMessageExtension)? = nil, now: Instant
    ) {
        let configuration = shared.value
        self.sharedConfiguration = shared
        self.extensionBox = messageExtension.map(ExtensionBox.init)
        self.decoder = WebSocketFrameDecoder(
            configuration: .init(
                maskPolicy: configuration.maskPolicy, allowedReservedBits: messageExtension?.reservedBits ?? [],
                maxFramePayloadBytes: configuration.maxFramePayloadBytes))
        self.lastReceivedAt = CompactInstant(now)
        self.limits = WebSocketMessageLimits(
            maxMessageBytes: configuration.maxMessageBytes, maxInflatedMessageBytes: configuration.maxMessageBytes)
    }

    /// Whether the application may still send messages (no close frame sent yet).
    ///
    /// Inlinable because a broadcast asks it once per delivered frame: called across the module boundary, it took a
    /// copy of the whole machine each time (15–18% of a fan-out's instructions under callgrind).
    @inlinable
    public var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    /// Whether the connection is finished (a ``WebSocketAction/closeTransport(_:)`` was returned).
    public var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// When ``timerFired(now:)`` next has work to do, or nil if never.
    public var nextDeadline: Instant? {
        switch state {
        case .closed:
            return nil
        case .closeSent(let deadline):
            return deadline.instant
        case .open:
            if let pingSentAt { return pingSentAt + configuration.pongTimeout }
            guard let interval = configuration.idlePingInterval else { return nil }
            return lastReceived + interval
        }
    }

    /// Whether ``nextDeadline`` is only the idle ping's (open, no ping outstanding): a deadline an owner may
    /// leave to a periodic sweep of its connections instead of a timer per connection, since a ping sent a little
    /// late costs nothing, while the close and pong deadlines stay exact.
    public var nextDeadlineIsIdlePing: Bool {
        guard case .open = state, pingSentAtCompact == .none else { return false }
        return configuration.idlePingInterval != nil
    }

    /// Arms the first timer; call once when the connection starts.
    public mutating func start(now: Instant) -> [WebSocketAction] {
        var actions: [WebSocketAction] = []
        appendTimerIfEarlier(to: &actions)
        return actions
    }

    /// Bytes arrived from the peer: they are buffered, and up to `frameLimit` complete frames are decoded and
    /// answered. Frames left over stay buffered (``hasPendingFrames``) until ``receivePending(now:frameLimit:)``.
    ///
    /// The limit is the owner's back-pressure lever: every frame may make it queue bytes (a pong, the
    /// application's reply), so an owner whose send queue is past its budget stops asking for frames, stops
    /// reading, and resumes once the queue drains. Memory then stays bounded by one read plus the budget, however
    /// fast the peer sends.
    public mutating func bytesReceived(
        _ bytes: some Collection<UInt8>, now: Instant, frameLimit: Int = .max
    ) -> [WebSocketAction] {
        guard !isClosed else { return [] }
        // Any bytes prove the peer alive, so they end the wait for a pong as well.
        lastReceived = now
        pingSentAtCompact = .none
        decoder.feed(bytes)
        return decodeBuffered(now: now, frameLimit: frameLimit)
    }

    /// Decodes and answers up to `frameLimit` more of the frames already received (see
    /// ``bytesReceived(_:now:frameLimit:)``).
    public mutating func receivePending(now: Instant, frameLimit: Int = .max) -> [WebSocketAction] {
        guard !isClosed, hasPendingFrames else { return [] }
        return decodeBuffered(now: now, frameLimit: frameLimit)
    }

    private mutating func decodeBuffered(now: Instant, frameLimit: Int) -> [WebSocketAction] {
        precondition(frameLimit > 0, "a frame limit below 1 would never make progress")
        hasPendingFrames = false
        var actions: [WebSocketAction] = []
        var frames = 0
        decoding: while !isClosed {
            if frames == frameLimit {
                // The rest waits in the decoder; whether it holds a whole frame is found out on the next call.
                hasPendingFrames = decoder.bufferedByteCount > 0
                break decoding
            }
            frames += 1
            switch decoder.next() {
            case .frame(let frame):
                do throws(WebSocketProtocolError) {
                    try receive(frame, now: now, into: &actions)
                } catch {
                    fail(error, into: &actions)
                }
            case .needMoreData:
                do throws(WebSocketProtocolError) {
                    try inspectFrameInProgress()
                } catch {
                    fail(error, into: &actions)
                }
                break decoding
            case .failed(let error):
                fail(error, into: &actions)
            }
        }
        appendTimerIfEarlier(to: &actions)
        return actions
    }

    /// The application sends a message: one frame, or nothing once a close frame has been sent (RFC 6455
    /// §5.5.1 forbids data after it).
    public mutating func send(_ message: WebSocketMessage) -> [WebSocketAction] {
        guard isOpen else { return [] }
        guard var messageExtension else { return [.write(WebSocketFrameEncoder.message(message))] }
        let frame = messageExtension.encodeFrame(for: message)
        self.messageExtension = messageExtension
        return [.write(frame)]
    }

    /// The application sends bytes that already are one or more complete server frames (a broadcast frame
    /// built once for many connections): written as they are, or nothing once a close frame has been sent
    /// (RFC 6455 §5.5.1). The extension is not consulted: the caller chose the frame for this connection.
    public mutating func sendFrame(_ bytes: [UInt8]) -> [WebSocketAction] {
        guard isOpen, !bytes.isEmpty else { return [] }
        return [.write(bytes)]
    }

    /// The peer closed the transport (end of file or reset) without finishing the close handshake.
    public mutating func transportClosed() -> [WebSocketAction] {
        guard !isClosed else { return [] }
        state = .closed
        return [.closeTransport(.transportClosedByPeer)]
    }

    /// Queues a close frame and closes the transport at once, for a protocol error (RFC 6455 §7.1.7).
    mutating func fail(_ error: WebSocketProtocolError, into actions: inout [WebSocketAction]) {
        switch state {
        case .open:
            actions.append(.write(WebSocketFrameEncoder.close(code: error.closeCode, reason: error.closeReason)))
            actions.append(.closeTransport(.protocolError(error)))
        case .closeSent:
            actions.append(.closeTransport(.protocolError(error)))
        case .closed:
            return
        }
        state = .closed
        fragmented = nil
    }

    /// Tells the owner about a deadline earlier than the one its timer holds. A later deadline needs no
    /// action: the earlier timer fires, finds nothing due, and reschedules.
    mutating func appendTimerIfEarlier(to actions: inout [WebSocketAction]) {
        guard let next = nextDeadline else { return }
        if let scheduled = scheduledDeadline, scheduled <= next { return }
        scheduledDeadline = next
        actions.append(.scheduleTimer(next))
    }
}

@available(*, unavailable)
extension WebSocketConnectionStateMachine: Sendable {}
