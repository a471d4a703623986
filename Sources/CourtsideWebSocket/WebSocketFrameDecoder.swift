/// An incremental decoder of WebSocket frames (RFC 6455 §5.2), written as a state machine: feed it bytes in any
/// chunks, then call ``next()`` until it needs more data.
///
/// Checks everything a single frame header can break: reserved opcodes, reserved bits against the negotiated
/// extensions, masking by role, control frames at most 125 bytes and never fragmented, the top bit of a 64-bit
/// length, and the configured frame size, each as soon as the header is complete. It does not know about
/// messages: fragmentation order, UTF-8 and close codes belong to ``WebSocketConnectionStateMachine``.
///
/// Non-minimal length encodings (a 126 or 127 form carrying a small length) are accepted: RFC 6455 §5.2 tells
/// the sender to use the minimal form but gives the receiver no action, and the longer form is unambiguous and
/// costs nothing to accept.
///
/// While a frame's payload is still arriving, ``frameInProgress`` shows its header and the payload bytes
/// received so far, already unmasked, so the connection can validate text as it arrives.
public struct WebSocketFrameDecoder: Sendable {
    public let configuration: Configuration

    private enum State: Sendable {
        /// Waiting for a complete header at `readIndex`.
        case header
        /// Header parsed; the payload starts at `readIndex + headerLength`; `unmasked` payload bytes are
        /// already XORed with the key in place.
        case payload(WebSocketFrameHeader, headerLength: Int, unmasked: Int)
        /// A frame broke the protocol; the stream cannot be resynchronised.
        case failed(WebSocketProtocolError)
    }

    private var state: State = .header
    /// Received bytes; everything before `readIndex` is consumed.
    private var buffer: [UInt8] = []
    private var readIndex = 0

    public init(configuration: Configuration = .server) {
        self.configuration = configuration
    }

    /// The bytes the decoder's buffer holds allocated (for memory tests and metrics): at most
    /// ``retainedCapacityBytes`` once everything received is consumed.
    public var bufferCapacity: Int { buffer.capacity }

    /// The number of received bytes not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends received bytes.
    public mutating func feed(_ bytes: some Collection<UInt8>) {
        if case .failed = state { return }
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or whether more bytes are needed, or the error that failed the stream.
    public mutating func next() -> WebSocketFrameDecoderResult {
        switch state {
        case .failed(let error):
            return .failed(error)
        case .header:
            switch parseHeader() {
            case nil:
                return .needMoreData
            case .failure(let error):
                state = .failed(error)
                buffer = []
                readIndex = 0
                return .failed(error)
            case .success(let (header, headerLength)):
                state = .payload(header, headerLength: headerLength, unmasked: 0)
                return next()
            }
        case .payload(let header, let headerLength, let unmasked):
            let payloadStart = readIndex + headerLength
            let available = min(buffer.count - payloadStart, header.payloadLength)
            if let key = header.maskingKey, available > unmasked {
                key.apply(to: &buffer, range: (payloadStart + unmasked)..<(payloadStart + available), offset: unmasked)
            }
            guard available == header.payloadLength else {
                state = .payload(header, headerLength: headerLength, unmasked: available)
                return .needMoreData
            }
            let payloadEnd = payloadStart + header.payloadLength
            let payload = Array(buffer[payloadStart..<payloadEnd])
            readIndex = payloadEnd
            state = .header
            if readIndex == buffer.count {
                // Everything is consumed: release a large buffer now rather than at the next read, which may
                // never come on an idle connection.
                buffer.removeAll(keepingCapacity: buffer.capacity <= Self.retainedCapacityBytes)
                readIndex = 0
            }
            return .frame(
                WebSocketFrame(
                    fin: header.fin, rsv1: header.reservedBits.contains(.rsv1),
                    rsv2: header.reservedBits.contains(.rsv2), rsv3: header.reservedBits.contains(.rsv3),
                    opcode: header.opcode, payload: payload))
        }
    }

    /// The frame whose payload is still arriving: its header and the payload bytes received so far, unmasked.
    /// Nil between frames. Valid after ``next()`` returned ``WebSocketFrameDecoderResult/needMoreData``.
    public var frameInProgress: (header: WebSocketFrameHeader, payloadPrefix: ArraySlice<UInt8>)? {
        guard case .payload(let header, let headerLength, let unmasked) = state else { return nil }
        let start = readIndex + headerLength
        return (header, buffer[start..<(start + unmasked)])
    }

    /// The buffer capacity kept once every received byte is consumed. A larger buffer (left by a large
    /// message) is released, so an idle connection holds at most this much; 4 KiB keeps a steady stream of
    /// small frames from reallocating on every read, while an idle socket stays small (the target is under
    /// 1 KiB of RSS per idle connection: an emptied buffer of this size is mostly untouched pages).
    public static let retainedCapacityBytes = 4 * 1024

    /// Drops consumed bytes once they are at least half the buffer, so the copy is amortised over the reads.
    private mutating func compactIfWorthwhile() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= Self.retainedCapacityBytes)
            readIndex = 0
        } else if readIndex >= 4096 && readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }

    /// Parses the header at `readIndex`: nil if incomplete.
    private func parseHeader() -> Result<(WebSocketFrameHeader, Int), WebSocketProtocolError>? {
        let available = buffer.count - readIndex
        guard available >= 2 else { return nil }
        let byte0 = buffer[readIndex]
        let byte1 = buffer[readIndex + 1]
        let fin = byte0 & 0x80 != 0
        let reservedBits = WebSocketReservedBits(rawValue: byte0 & 0x70)
        let masked = byte1 & 0x80 != 0
        // Checks that need only the first two bytes come first, so a bad frame fails before its length arrives.
        guard let opcode = WebSocketOpcode(rawValue: byte0 & 0x0F) else {
            return .failure(.reservedOpcode(byte0 & 0x0F))  // RFC 6455 §5.2: reserved opcodes fail the connection
        }
        let unexpectedBits = reservedBits.subtracting(configuration.allowedReservedBits)
        if !unexpectedBits.isEmpty {
            return .failure(.reservedBitsNotNegotiated(unexpectedBits))  // RFC 6455 §5.2
        }
        switch (configuration.maskPolicy, masked) {
        case (.required, false): return .failure(.unmaskedClientFrame)  // RFC 6455 §5.1
        case (.forbidden, true): return .failure(.maskedServerFrame)  // RFC 6455 §5.1
        default: break
        }
        let shortLength = Int(byte1 & 0x7F)
        if opcode.isControl {
            // RFC 6455 §5.5: control frames carry at most 125 bytes and are never fragmented.
            if !fin { return .failure(.fragmentedControlFrame(opcode)) }
            if shortLength > 125 { return .failure(.controlFrameTooLong(opcode: opcode, length: shortLength)) }
        }
        var headerLength = 2
        let length: UInt64
        switch shortLength {
        case 126:
            guard available >= 4 else { return nil }
            length = UInt64(buffer[readIndex + 2]) << 8 | UInt64(buffer[readIndex + 3])
            headerLength = 4
        case 127:
            guard available >= 10 else { return nil }
            var value: UInt64 = 0
            for offset in 2..<10 { value = value << 8 | UInt64(buffer[readIndex + offset]) }
            // RFC 6455 §5.2: the most significant bit of a 64-bit length must be 0.
            if value & (1 << 63) != 0 { return .failure(.payloadLengthTopBitSet) }
            length = value
            headerLength = 10
        default:
            length = UInt64(shortLength)
        }
        if length > UInt64(configuration.maxFramePayloadBytes) {
            return .failure(.frameTooLarge(length: length, limit: configuration.maxFramePayloadBytes))
        }
        var maskingKey: WebSocketMaskingKey?
        if masked {
            guard available >= headerLength + 4 else { return nil }
            let at = readIndex + headerLength
            maskingKey = WebSocketMaskingKey(buffer[at], buffer[at + 1], buffer[at + 2], buffer[at + 3])
            headerLength += 4
        }
        let header = WebSocketFrameHeader(
            fin: fin, reservedBits: reservedBits, opcode: opcode, maskingKey: maskingKey, payloadLength: Int(length))
        return .success((header, headerLength))
    }
}
