import CourtsideTestSupport
import CourtsideWebSocket
import Testing

/// How a byte stream is cut into reads.
enum Chunking: CustomStringConvertible, CaseIterable {
    case allAtOnce
    case byteByByte
    case randomChunks(seed: UInt64)

    static let allCases: [Chunking] = [.allAtOnce, .byteByByte, .randomChunks(seed: 1), .randomChunks(seed: 42)]

    func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        switch self {
        case .allAtOnce:
            return [bytes[...]]
        case .byteByByte:
            return bytes.indices.map { bytes[$0...$0] }
        case .randomChunks(let seed):
            var generator = SeededGenerator(seed: seed)
            var chunks: [ArraySlice<UInt8>] = []
            var start = 0
            while start < bytes.count {
                let length = Int.random(in: 1...17, using: &generator)
                let end = min(bytes.count, start + length)
                chunks.append(bytes[start..<end])
                start = end
            }
            return chunks
        }
    }

    var description: String {
        switch self {
        case .allAtOnce: return "all at once"
        case .byteByByte: return "byte by byte"
        case .randomChunks(let seed): return "random chunks (seed \(seed))"
        }
    }
}

let testKey = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
let t0 = ContinuousClock.now

/// A masked frame as a client sends it.
func clientFrame(
    _ opcode: WebSocketOpcode, _ payload: [UInt8] = [], fin: Bool = true, reservedBits: WebSocketReservedBits = []
) -> [UInt8] {
    WebSocketFrameEncoder.frame(
        opcode: opcode, payload: payload, fin: fin, reservedBits: reservedBits, maskingKey: testKey)
}

func clientFrame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> [UInt8] {
    clientFrame(opcode, Array(text.utf8), fin: fin)
}

/// A close frame from the client with a raw code and raw reason bytes.
func clientClose(code: UInt16, reason: [UInt8] = []) -> [UInt8] {
    clientFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + reason)
}

/// Feeds `bytes` to a fresh connection in the given chunks, returning every action after `start`.
func runConnection(
    _ bytes: [UInt8], chunking: Chunking, configuration: WebSocketConnectionStateMachine.Configuration = .server
) -> [WebSocketAction] {
    var connection = WebSocketConnectionStateMachine(configuration: configuration, now: t0)
    _ = connection.start(now: t0)
    var actions: [WebSocketAction] = []
    for chunk in chunking.split(bytes) {
        actions += connection.bytesReceived(chunk, now: t0)
    }
    return actions
}

/// Runs `bytes` in every chunking, expects identical actions, and returns them.
func runDripFed(
    _ bytes: [UInt8], configuration: WebSocketConnectionStateMachine.Configuration = .server,
    sourceLocation: SourceLocation = #_sourceLocation
) -> [WebSocketAction] {
    let reference = runConnection(bytes, chunking: .allAtOnce, configuration: configuration)
    for chunking in Chunking.allCases.dropFirst() {
        let actions = runConnection(bytes, chunking: chunking, configuration: configuration)
        #expect(actions == reference, "chunking: \(chunking)", sourceLocation: sourceLocation)
    }
    return reference
}

/// The frames in the `.write` actions, decoded as a client would.
func writtenFrames(_ actions: [WebSocketAction]) -> [WebSocketFrame] {
    var decoder = WebSocketFrameDecoder(configuration: .client)
    var frames: [WebSocketFrame] = []
    for case .write(let bytes) in actions {
        decoder.feed(bytes)
        while case .frame(let frame) = decoder.next() { frames.append(frame) }
    }
    return frames
}

/// The close code of the close frame written, if any (nil also for an empty close frame).
func writtenCloseCode(_ actions: [WebSocketAction]) -> UInt16? {
    guard let close = writtenFrames(actions).first(where: { $0.opcode == .close }), close.payload.count >= 2 else {
        return nil
    }
    return UInt16(close.payload[0]) << 8 | UInt16(close.payload[1])
}

/// The delivered messages.
func delivered(_ actions: [WebSocketAction]) -> [WebSocketMessage] {
    actions.compactMap {
        if case .deliver(let message) = $0 { return message }
        return nil
    }
}

/// The closure reported by `.closeTransport`, if any.
func closure(_ actions: [WebSocketAction]) -> WebSocketClosure? {
    for case .closeTransport(let closure) in actions { return closure }
    return nil
}

/// The protocol error that closed the connection, if that is how it ended.
func protocolError(_ actions: [WebSocketAction]) -> WebSocketProtocolError? {
    if case .protocolError(let error) = closure(actions) { return error }
    return nil
}

/// A connection opened at `t0` whose first timer is already armed, so later actions hold only what the test does.
func startedConnection(
    configuration: WebSocketConnectionStateMachine.Configuration = .server,
    messageExtension: (any WebSocketMessageExtension)? = nil
) -> WebSocketConnectionStateMachine {
    var connection = WebSocketConnectionStateMachine(
        configuration: configuration, messageExtension: messageExtension, now: t0)
    _ = connection.start(now: t0)
    return connection
}
