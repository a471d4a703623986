import CourtsideWebSocket
import Synchronization

/// Compresses a channel's messages once for all its subscribers (one compressor per channel and per agreed
/// `server_max_window_bits`): the shared-context stream, a no-context variant and the plain frame, each built
/// once as complete frames (``BroadcastFrames``).
///
/// Why it is valid (RFC 7692): context takeover in the server-to-client direction is the server's choice,
/// and the client's inflater simply keeps its window between compressed messages (§7.2.2). Every subscriber
/// that inflated this stream's compressed messages since a sync point holds the compressor's window, so the
/// shared bytes decode for all of them. At a sync point the shared deflater is reset, so that message
/// references nothing earlier and decodes in any inflater that is between messages: waiting subscribers join
/// there. Plain frames (RSV1 clear) never touch an inflater (§6), so waiting subscribers can be served with
/// them without disturbing anything. See docs/deflate.md for the figures behind the defaults.
///
/// Loop-confined: the publisher's loop owns it; the frames it returns go to every loop.
public final class BroadcastCompressor {
    /// When sync points happen and which variants are built.
    public struct Configuration: Sendable, Hashable {
        /// zlib level. Default 6: compression happens once per message, not per subscriber, so the better
        /// ratio is worth its CPU.
        public var level: Int
        /// zlib memLevel. Default 8: one stream per channel, so its 261 KiB (15-bit window) hardly matter.
        public var memLevel: Int
        /// A sync point at least this often (in compressed messages), even if nobody asked: bounds how long a
        /// subscriber waits when its owner did not call ``requestSyncPoint()``. Default 64: costs 0.024 of
        /// wire ratio on scoreboard patches against never syncing (0.128 against 0.104, docs/deflate.md).
        public var maxMessagesBetweenSyncPoints: Int
        /// After ``requestSyncPoint()``, the next sync point comes once this many compressed messages have
        /// passed since the last one... Default 16: with joins on every message (a popular channel), the shared
        /// ratio stays at 0.168 instead of degrading towards the no-context 0.58.
        public var minimumMessagesBetweenRequestedSyncPoints: Int
        /// ...or once this much time has passed since the last one, for slow channels. Default 30 s: a joiner
        /// of a quiet channel waits a few messages, not minutes, while a busy channel with joins all the time
        /// syncs by message count (docs/deflate.md: 10 s would sync every ~7 messages at play rate).
        public var requestedSyncPointDelay: Duration
        /// Build the no-context variant for messages of at least this many bytes, even when no subscriber
        /// negotiated `server_no_context_takeover`: waiting subscribers get it instead of the plain frame.
        /// Default 256: a 236-byte patch alone compresses to 0.58, a 471-byte one to 0.38 (docs/deflate.md);
        /// below that the second compression per message buys little.
        public var noContextMinimumBytes: Int
        /// Messages shorter than this go plain to everyone and bypass the shared stream. Default 8 bytes: even
        /// with context, `{}` compresses to 4 bytes and `{"seq":42}` (10) to 7 (docs/deflate.md).
        public var minimumCompressedBytes: Int

        public init(
            level: Int = 6, memLevel: Int = 8, maxMessagesBetweenSyncPoints: Int = 64,
            minimumMessagesBetweenRequestedSyncPoints: Int = 16, requestedSyncPointDelay: Duration = .seconds(30),
            noContextMinimumBytes: Int = 256, minimumCompressedBytes: Int = 8
        ) {
            precondition(maxMessagesBetweenSyncPoints >= 1, "maxMessagesBetweenSyncPoints must be at least 1")
            self.level = level
            self.memLevel = memLevel
            self.maxMessagesBetweenSyncPoints = maxMessagesBetweenSyncPoints
            self.minimumMessagesBetweenRequestedSyncPoints = minimumMessagesBetweenRequestedSyncPoints
            self.requestedSyncPointDelay = requestedSyncPointDelay
            self.noContextMinimumBytes = noContextMinimumBytes
            self.minimumCompressedBytes = minimumCompressedBytes
        }
    }

    /// Running totals, for metrics and docs/deflate.md.
    public struct Statistics: Sendable, Hashable {
        public var messages = 0
        public var syncPoints = 0
        public var payloadBytes = 0
        /// Payload bytes of the shared frames (or plain payloads of messages sent plain to everyone).
        public var sharedPayloadBytes = 0
        public var noContextFrames = 0
    }

    /// The agreed `server_max_window_bits` of the subscribers this compressor serves.
    public let windowBits: Int
    public let configuration: Configuration
    /// Distinguishes this stream from any other in ``BroadcastFrames``; never 0.
    public let streamID: UInt32
    public private(set) var statistics = Statistics()

    /// Set while subscribers that negotiated `server_no_context_takeover` are attached: every compressed
    /// message then gets a no-context variant.
    public var needsNoContextFrames = false

    private let shared: Deflater
    /// Allocated on the first no-context variant, reset before each.
    private var noContext: Deflater?
    private var nextSequence: UInt64 = 0
    private var compressedSinceSync = 0
    private var lastSyncPoint: ContinuousClock.Instant?
    private var syncRequested = false

    public init(windowBits: Int, configuration: Configuration = Configuration()) throws(ZlibError) {
        self.shared = try Deflater(windowBits: windowBits, memLevel: configuration.memLevel, level: configuration.level)
        self.windowBits = windowBits
        self.configuration = configuration
        self.streamID = nextBroadcastStreamID()
    }

    /// What zlib holds for this channel's streams.
    public var memoryUsage: ZlibMemoryUsage {
        var usage = shared.memoryUsage
        if let noContext {
            usage.currentBytes += noContext.memoryUsage.currentBytes
            usage.peakBytes += noContext.memoryUsage.peakBytes
        }
        return usage
    }

    /// A subscriber joined or needs to resync: make a sync point soon (see
    /// ``Configuration/minimumMessagesBetweenRequestedSyncPoints`` and ``Configuration/requestedSyncPointDelay``).
    public func requestSyncPoint() {
        syncRequested = true
    }

    /// Compresses one published message.
    public func compress(_ message: WebSocketMessage, now: ContinuousClock.Instant) -> BroadcastFrames {
        compress(payload: message.payload, opcode: message.opcode, now: now)
    }

    /// Compresses one published message given as its payload and opcode (`.text` or `.binary`). `plainFrame`, when
    /// the caller has built it already, is `payload` as one plain frame of `opcode`: it becomes the uncompressed
    /// variant as it is (the same array every plain subscriber gets) instead of being built again.
    public func compress(
        payload: [UInt8], opcode: WebSocketOpcode, plainFrame: [UInt8]? = nil, now: ContinuousClock.Instant
    ) -> BroadcastFrames {
        precondition(opcode == .text || opcode == .binary, "only data messages are broadcast")
        let sequence = nextSequence
        nextSequence += 1
        statistics.messages += 1
        statistics.payloadBytes += payload.count
        let plain = plainFrame ?? WebSocketFrameEncoder.frame(opcode: opcode, payload: payload)
        guard payload.count >= configuration.minimumCompressedBytes else {
            statistics.sharedPayloadBytes += payload.count
            return BroadcastFrames(
                streamID: streamID, sequence: sequence, isSyncPoint: false, shared: nil, noContext: nil,
                uncompressed: plain, payloadBytes: payload.count, windowBits: windowBits)
        }
        let isSyncPoint = decideSyncPoint(now: now)
        if isSyncPoint {
            shared.reset()
            statistics.syncPoints += 1
            compressedSinceSync = 0
            lastSyncPoint = now
            syncRequested = false
        }
        compressedSinceSync += 1
        let compressed = shared.compress(payload)
        statistics.sharedPayloadBytes += compressed.count
        let sharedFrame = WebSocketFrameEncoder.frame(opcode: opcode, payload: compressed, reservedBits: .rsv1)
        var noContextFrame: [UInt8]?
        if isSyncPoint {
            // Compressed from an empty context: the shared frame is the no-context frame.
            noContextFrame = sharedFrame
        } else if needsNoContextFrames || payload.count >= configuration.noContextMinimumBytes {
            noContextFrame = compressWithoutContext(payload, opcode: opcode)
        }
        return BroadcastFrames(
            streamID: streamID, sequence: sequence, isSyncPoint: isSyncPoint, shared: sharedFrame,
            noContext: noContextFrame, uncompressed: plain, payloadBytes: payload.count, windowBits: windowBits)
    }

    private func decideSyncPoint(now: ContinuousClock.Instant) -> Bool {
        guard let lastSyncPoint else { return true }  // the stream's first compressed message
        if compressedSinceSync >= configuration.maxMessagesBetweenSyncPoints { return true }
        guard syncRequested else { return false }
        return compressedSinceSync >= configuration.minimumMessagesBetweenRequestedSyncPoints
            || now - lastSyncPoint >= configuration.requestedSyncPointDelay
    }

    /// The no-context frame, or nil when it would not be smaller than the plain one.
    private func compressWithoutContext(_ payload: [UInt8], opcode: WebSocketOpcode) -> [UInt8]? {
        let deflater: Deflater
        if let noContext {
            deflater = noContext
            deflater.reset()
        } else {
            // A second stream of the same window; if zlib cannot allocate it, waiting subscribers get plain frames.
            guard
                let created = try? Deflater(
                    windowBits: windowBits, memLevel: configuration.memLevel, level: configuration.level)
            else { return nil }
            noContext = created
            deflater = created
        }
        let compressed = deflater.compress(payload)
        guard compressed.count < payload.count else { return nil }
        statistics.noContextFrames += 1
        return WebSocketFrameEncoder.frame(opcode: opcode, payload: compressed, reservedBits: .rsv1)
    }
}

@available(*, unavailable)
extension BroadcastCompressor: Sendable {}

/// Stream identifiers, unique across the process (0 is reserved for "no stream").
private let broadcastStreamIDs = Atomic<UInt32>(0)

private func nextBroadcastStreamID() -> UInt32 {
    while true {
        let id = broadcastStreamIDs.wrappingAdd(1, ordering: .relaxed).newValue
        if id != 0 { return id }
    }
}
