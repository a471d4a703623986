import CourtsideWebSocket

/// permessage-deflate on one connection (RFC 7692): inflates received compressed messages for the
/// ``WebSocketConnectionStateMachine`` (as its ``WebSocketMessageExtension``), compresses the connection's own
/// messages, and picks which variant of a broadcast message this subscriber gets.
///
/// zlib streams are allocated when first needed: a subscriber that never sends a compressed message has no
/// inflater, and one that only receives broadcast frames has no deflater. Both directions share one picture of
/// the client's inflater: a compressed frame from one source (the connection's deflater, a channel's shared
/// stream, a no-context frame) invalidates what the others assumed it holds.
///
/// Not enforced here: RSV1 on continuation frames (the connection state machine fails those with 1002) and the
/// handshake (see ``PerMessageDeflateConfiguration/negotiate(_:)``). Loop-confined.
public final class PerMessageDeflateConnection: WebSocketMessageExtension {
    public let parameters: PerMessageDeflateParameters
    public let configuration: PerMessageDeflateConfiguration
    /// Where this subscriber stands in the broadcast stream it receives.
    public private(set) var broadcastState: BroadcastSubscriberState

    private var inflater: Inflater?
    private var deflater: Deflater?
    /// Whether the client's inflater window holds exactly our deflater's history (so its next output, which may
    /// reference that history, decodes). False once another compressed frame or a plain copy of a message the
    /// deflater absorbed went out instead.
    private var deflaterMatchesPeer = true

    public init(parameters: PerMessageDeflateParameters, configuration: PerMessageDeflateConfiguration) {
        self.parameters = parameters
        self.configuration = configuration
        self.broadcastState = BroadcastSubscriberState(serverNoContextTakeover: parameters.serverNoContextTakeover)
    }

    /// permessage-deflate uses RSV1 alone (RFC 7692 §6).
    public var reservedBits: WebSocketReservedBits { .rsv1 }

    /// What zlib holds for this connection now (zero while no stream is allocated).
    public var memoryUsage: ZlibMemoryUsage {
        var usage = ZlibMemoryUsage()
        for stream in [inflater?.memoryUsage, deflater?.memoryUsage].compactMap({ $0 }) {
            usage.currentBytes += stream.currentBytes
            usage.peakBytes += stream.peakBytes
        }
        return usage
    }

    // MARK: Receiving

    /// Inflates a message whose first frame had RSV1 (RFC 7692 §6.2), stopping as soon as it passes `maxBytes`
    /// (1009, however far the message claims to expand). Corrupt data, or back references beyond the agreed
    /// `client_max_window_bits`, fail with 1007.
    public func decodeMessage(_ payload: [UInt8], opcode: WebSocketOpcode, maxBytes: Int)
        throws(WebSocketProtocolError) -> [UInt8]
    {
        let inflater: Inflater
        if let existing = self.inflater {
            inflater = existing
        } else {
            do {
                inflater = try Inflater(windowBits: parameters.clientMaxWindowBits)
            } catch {
                // Our failure, not the peer's: 1011.
                throw .extensionResourceFailure("could not allocate an inflater")
            }
            self.inflater = inflater
        }
        let message: [UInt8]
        do {
            message = try inflater.decompress(payload, maxBytes: maxBytes)
        } catch {
            switch error {
            case .outputLimitExceeded(let limit): throw .messageTooLarge(size: limit + 1, limit: limit)
            case .invalidData(let reason): throw .extensionFailed(reason)
            }
        }
        // §7.2.2: with client_no_context_takeover the next message starts from an empty window.
        if parameters.clientNoContextTakeover { inflater.reset() }
        return message
    }

    // MARK: Sending

    /// One frame carrying `message`, compressed (RSV1) when that pays, for a message of this connection alone.
    /// A compressed frame puts the subscriber out of sync with any broadcast stream.
    public func frame(for message: WebSocketMessage) -> [UInt8] {
        let payload = message.payload
        guard payload.count >= configuration.minimumCompressedBytes, let deflater = ownDeflater() else {
            return WebSocketFrameEncoder.frame(opcode: message.opcode, payload: payload)
        }
        if !deflaterMatchesPeer { deflater.reset() }
        let compressed = deflater.compress(payload)
        // §7.2.1: with server_no_context_takeover every message starts from an empty window.
        if parameters.serverNoContextTakeover { deflater.reset() }
        guard compressed.count < payload.count else {
            // The deflater absorbed a message the client will not see compressed: its history no longer
            // matches the client's window. Plain frames leave the client's inflater alone (RFC 7692 §6).
            deflaterMatchesPeer = false
            return WebSocketFrameEncoder.frame(opcode: message.opcode, payload: payload)
        }
        deflaterMatchesPeer = true
        broadcastState.markOutOfSync()
        return WebSocketFrameEncoder.frame(opcode: message.opcode, payload: compressed, reservedBits: .rsv1)
    }

    /// ``WebSocketMessageExtension`` send hook: the state machine's `send` compresses through ``frame(for:)-(WebSocketMessage)``.
    public func encodeFrame(for message: WebSocketMessage) -> [UInt8] {
        frame(for: message)
    }

    /// The variant of a broadcast message this subscriber gets, recorded as sent: call it only for a frame
    /// that will be queued, and ``broadcastFrameDropped()`` if it is not sent after all. `frames` must come
    /// from a compressor whose window is at most this connection's agreed `server_max_window_bits` (usually
    /// equal: one compressor per agreed window).
    public func frame(for frames: BroadcastFrames) -> [UInt8] {
        precondition(frames.windowBits <= parameters.serverMaxWindowBits, "broadcast window larger than agreed")
        let variant = broadcastState.select(frames)
        if variant != .uncompressed { deflaterMatchesPeer = false }
        return frames.bytes(for: variant)
    }

    /// A broadcast frame chosen by ``frame(for:)-(BroadcastFrames)`` was not sent (dropped by backpressure):
    /// the subscriber waits for the next sync point.
    public func broadcastFrameDropped() {
        broadcastState.markOutOfSync()
    }

    /// Frees the zlib streams that can go without breaking the protocol, for an idle connection: the deflater
    /// always (the next message is then compressed from an empty window, which any inflater decodes), the
    /// inflater only under `client_no_context_takeover` (otherwise the client may reference its history).
    public func releaseStreams() {
        deflater = nil
        deflaterMatchesPeer = true
        if parameters.clientNoContextTakeover { inflater = nil }
    }

    /// The connection ended: frees both zlib streams now, whoever still holds this object.
    public func connectionClosed() {
        deflater = nil
        inflater = nil
        broadcastState.markOutOfSync()
    }

    private func ownDeflater() -> Deflater? {
        if let deflater { return deflater }
        // The agreed window is a maximum; ours never exceeds the configured one.
        let windowBits = min(parameters.serverMaxWindowBits, configuration.serverMaxWindowBits)
        let created = try? Deflater(
            windowBits: windowBits, memLevel: configuration.memLevel, level: configuration.compressionLevel)
        deflater = created
        deflaterMatchesPeer = true  // a fresh deflater references nothing
        return created
    }
}

@available(*, unavailable)
extension PerMessageDeflateConnection: Sendable {}
