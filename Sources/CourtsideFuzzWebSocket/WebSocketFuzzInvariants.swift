import CourtsideRandom
import CourtsideWebSocket

/// What must hold for any bytes a client sends: the connection never traps, reads split anywhere give the same
/// actions as one read, nothing follows the close, and every byte written is a valid server frame.
enum WebSocketFuzzInvariants {
    /// Checks `input`. Its first byte picks the configuration, so small limits and the extension hook are
    /// reached as often as the defaults; the rest is what the client sends, either raw or (bit 3) as frame
    /// records that are masked here, so the fuzzer controls unmasked payloads and reaches deep states.
    static func check(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let rest = Array(input.dropFirst())
        let bytes = selector & 8 == 0 ? rest : maskedFrames(fromRecords: rest)
        let configuration = WebSocketConnectionStateMachine.Configuration(
            maxFramePayloadBytes: selector & 1 == 0 ? 16 * 1024 * 1024 : 200,
            maxMessageBytes: selector & 2 == 0 ? 16 * 1024 * 1024 : 300)
        let withExtension = selector & 4 != 0
        let start = ContinuousClock.now

        let whole = run(configuration, withExtension, start, chunks: [bytes[...]])
        // Cut points from a generator seeded by the input, so each input has one reproducible split.
        var generator = SplitMix64(seed: UInt64(selector) &* 0x9E37_79B9 &+ UInt64(bytes.count))
        var chunks: [ArraySlice<UInt8>] = []
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + Int(generator.next() % 9) + 1)
            chunks.append(bytes[index..<end])
            index = end
        }
        let split = run(configuration, withExtension, start, chunks: chunks)
        precondition(whole == split, "split reads changed the actions:\n\(whole)\n\(split)")
        let byteByByte = run(configuration, withExtension, start, chunks: bytes.indices.map { bytes[$0...$0] })
        precondition(whole == byteByByte, "byte-by-byte reads changed the actions:\n\(whole)\n\(byteByByte)")
        checkActions(whole)
    }

    /// Records `[first header byte, payload length, payload…]` become masked frames with that first byte (any
    /// opcode and bits), the minimal length form and a fixed key.
    private static func maskedFrames(fromRecords records: [UInt8]) -> [UInt8] {
        let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
        var output: [UInt8] = []
        var index = 0
        while index + 2 <= records.count {
            let first = records[index]
            let length = min(Int(records[index + 1]), records.count - index - 2)
            var payload = Array(records[(index + 2)..<(index + 2 + length)])
            index += 2 + length
            output.append(first)
            output.append(0x80 | UInt8(length <= 125 ? length : 126))
            if length > 125 { output += [0, UInt8(length)] }
            output += [key.bytes.0, key.bytes.1, key.bytes.2, key.bytes.3]
            key.apply(to: &payload, range: 0..<payload.count)
            output += payload
        }
        return output
    }

    private static func run(
        _ configuration: WebSocketConnectionStateMachine.Configuration, _ withExtension: Bool,
        _ now: ContinuousClock.Instant, chunks: [ArraySlice<UInt8>]
    ) -> [WebSocketAction] {
        var connection = WebSocketConnectionStateMachine(
            configuration: configuration, messageExtension: withExtension ? XORExtension() : nil, now: now)
        var actions = connection.start(now: now)
        for chunk in chunks {
            actions += connection.bytesReceived(chunk, now: now)
        }
        // Timers after the input: an idle ping, then the dead-peer close, must both be well-formed too.
        actions += connection.timerFired(now: now + .seconds(3600))
        actions += connection.timerFired(now: now + .seconds(7200))
        return actions
    }

    /// Nothing after the transport is closed; at most one close frame, last of the writes; every write decodes.
    private static func checkActions(_ actions: [WebSocketAction]) {
        var decoder = WebSocketFrameDecoder(configuration: .client)
        var closed = false
        var closeFrameSeen = false
        for action in actions {
            precondition(!closed, "an action after closeTransport: \(actions)")
            switch action {
            case .closeTransport:
                closed = true
            case .write(let bytes):
                precondition(!closeFrameSeen, "a write after the close frame: \(actions)")
                decoder.feed(bytes)
                decoding: while true {
                    switch decoder.next() {
                    case .needMoreData:
                        break decoding
                    case .failed(let error):
                        preconditionFailure("wrote an invalid frame: \(error)")
                    case .frame(let frame) where frame.opcode == .close:
                        closeFrameSeen = true
                        if frame.payload.count >= 2 {
                            let code = UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
                            precondition(WebSocketCloseCode(rawValue: code).isValidOnWire, "sent code \(code)")
                        }
                    case .frame:
                        precondition(!closeFrameSeen, "a frame after the close frame: \(actions)")
                    }
                }
                precondition(decoder.bufferedByteCount == 0, "a write ended mid-frame")
            case .deliver, .scheduleTimer:
                break
            }
        }
    }
}

/// A stand-in extension: XORs the payload with 0x20, fails on a message starting with 0xFF, and honours the
/// size limit as a real inflater must.
private struct XORExtension: WebSocketMessageExtension {
    var reservedBits: WebSocketReservedBits { .rsv1 }

    mutating func decodeMessage(_ payload: [UInt8], opcode: WebSocketOpcode, maxBytes: Int)
        throws(WebSocketProtocolError) -> [UInt8]
    {
        if payload.first == 0xFF { throw .extensionFailed("marker") }
        let decoded = payload.map { $0 ^ 0x20 } + payload
        if decoded.count > maxBytes { throw .messageTooLarge(size: decoded.count, limit: maxBytes) }
        return decoded
    }
}
