import CourtsideWebSocket

/// Which compressed variants a published message needs: the agreed `server_max_window_bits` among a channel's
/// deflate subscribers, and which of those windows have `server_no_context_takeover` subscribers.
public struct BroadcastDemand: Sendable, Hashable {
    /// Bit `w - 8` is set when some subscriber agreed `server_max_window_bits = w`.
    public private(set) var windows: UInt16 = 0
    /// Bit `w - 8` is set when some subscriber of window `w` agreed `server_no_context_takeover`.
    public private(set) var noContextWindows: UInt16 = 0

    public init() {}

    /// Adds one subscriber's agreed parameters.
    public mutating func insert(_ parameters: PerMessageDeflateParameters) {
        insert(windowBits: parameters.serverMaxWindowBits, noContext: parameters.serverNoContextTakeover)
    }

    /// Adds a window (8–15), and whether a subscriber of it takes no context.
    public mutating func insert(windowBits: Int, noContext: Bool) {
        precondition((8...15).contains(windowBits), "windowBits must be 8...15")
        windows |= 1 << (windowBits - 8)
        if noContext { noContextWindows |= 1 << (windowBits - 8) }
    }

    /// Whether no subscriber takes compressed frames.
    public var isEmpty: Bool { windows == 0 }

    public func contains(windowBits: Int) -> Bool { windows & (1 << (windowBits - 8)) != 0 }

    public func needsNoContext(windowBits: Int) -> Bool { noContextWindows & (1 << (windowBits - 8)) != 0 }
}

/// One published message, encoded once for every kind of subscriber: the plain frame, and the
/// ``BroadcastFrames`` of each agreed window that had subscribers. Immutable and `Sendable`: the same value
/// goes to every loop, and every subscriber queues one of its arrays (never a copy).
public struct BroadcastMessage: Sendable {
    /// The plain frame (RSV1 clear): for subscribers without deflate, and deflate subscribers of a window no
    /// compressor served.
    public let uncompressed: [UInt8]
    /// One entry per window, ascending by `windowBits`.
    public let compressed: [BroadcastFrames]

    public init(uncompressed: [UInt8], compressed: [BroadcastFrames]) {
        self.uncompressed = uncompressed
        self.compressed = compressed
    }

    /// The frames made for subscribers that agreed exactly this `server_max_window_bits`, if any.
    public func frames(forWindowBits windowBits: Int) -> BroadcastFrames? {
        for frames in compressed where frames.windowBits == windowBits { return frames }
        return nil
    }
}

/// A channel's encoder: builds the plain frame once and keeps one ``BroadcastCompressor`` per agreed window
/// among its subscribers (RFC 7692 §7.1.2.1: a subscriber's window bounds the distances our frames may use,
/// so subscribers of different windows cannot share one stream). A compressor is created when its window first
/// has subscribers (its first message is a sync point) and freed when the window has none, so a channel that
/// lost its deflate subscribers holds no zlib memory.
///
/// Confined to whoever publishes (a loop, or a lock held around ``encode(_:demand:now:)``).
public final class BroadcastEncoder {
    public let configuration: BroadcastCompressor.Configuration
    /// Indexed by `windowBits - 8`.
    private var compressors: [BroadcastCompressor?] = Array(repeating: nil, count: 8)

    public init(configuration: BroadcastCompressor.Configuration = BroadcastCompressor.Configuration()) {
        self.configuration = configuration
    }

    /// A subscriber joined or must resync: every live compressor makes a sync point soon (a compressor created
    /// later starts with one anyway).
    public func requestSyncPoint() {
        for compressor in compressors { compressor?.requestSyncPoint() }
    }

    /// What zlib holds for this channel, summed over its compressors.
    public var memoryUsage: ZlibMemoryUsage {
        var usage = ZlibMemoryUsage()
        for case let compressor? in compressors {
            usage.currentBytes += compressor.memoryUsage.currentBytes
            usage.peakBytes += compressor.memoryUsage.peakBytes
        }
        return usage
    }

    /// The statistics of the compressor of one window, if it exists.
    public func statistics(windowBits: Int) -> BroadcastCompressor.Statistics? {
        compressors[windowBits - 8]?.statistics
    }

    /// Encodes one published message for the windows in `demand`. If zlib cannot allocate a compressor, its
    /// window's subscribers get the plain frame (always valid: plain frames never touch an inflater, §6).
    public func encode(_ message: WebSocketMessage, demand: BroadcastDemand, now: ContinuousClock.Instant)
        -> BroadcastMessage
    {
        encode(
            payload: message.payload, opcode: message.opcode,
            frame: WebSocketFrameEncoder.frame(opcode: message.opcode, payload: message.payload), demand: demand,
            now: now)
    }

    /// Encodes one published message given as its payload and its plain frame (unfragmented, unmasked, RSV1 clear),
    /// built once by the caller: that frame is the one every plain subscriber (and every compressor's plain variant)
    /// gets, so it is never built again here.
    public func encode(
        payload: [UInt8], opcode: WebSocketOpcode, frame uncompressed: [UInt8], demand: BroadcastDemand,
        now: ContinuousClock.Instant
    ) -> BroadcastMessage {
        var compressed: [BroadcastFrames] = []
        for windowBits in 8...15 {
            guard demand.contains(windowBits: windowBits) else {
                compressors[windowBits - 8] = nil
                continue
            }
            let compressor: BroadcastCompressor
            if let existing = compressors[windowBits - 8] {
                compressor = existing
            } else {
                guard let created = try? BroadcastCompressor(windowBits: windowBits, configuration: configuration)
                else { continue }
                compressors[windowBits - 8] = created
                compressor = created
            }
            compressor.needsNoContextFrames = demand.needsNoContext(windowBits: windowBits)
            compressed.append(
                compressor.compress(payload: payload, opcode: opcode, plainFrame: uncompressed, now: now))
        }
        return BroadcastMessage(uncompressed: uncompressed, compressed: compressed)
    }
}

@available(*, unavailable)
extension BroadcastEncoder: Sendable {}

extension PerMessageDeflateConnection {
    /// The frame of a broadcast message this subscriber gets: a variant of its window's frames (chosen and
    /// recorded as in ``frame(for:)-(BroadcastFrames)``), or the plain frame when its window was not encoded.
    /// Call it only for a frame that will be queued; ``broadcastFrameDropped()`` otherwise.
    public func frame(for message: BroadcastMessage) -> [UInt8] {
        guard let frames = message.frames(forWindowBits: parameters.serverMaxWindowBits) else {
            return message.uncompressed
        }
        return frame(for: frames)
    }
}
