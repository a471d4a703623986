import CourtsideWebSocket
import CourtsideWebSocketDeflate
import Testing

/// The address of an array's storage: the same address means the same buffer, not an equal copy.
private func storage(_ bytes: [UInt8]) -> UnsafeRawPointer? {
    bytes.withUnsafeBytes { $0.baseAddress }
}

@Suite("Broadcast encoder: a message published as bytes, framed once by the caller")
struct BroadcastEncoderPlainFrameTests {
    @Test("the encoder and every compressor take the payload's frame as the plain variant, never building another")
    func plainFrameReused() throws {
        let encoder = BroadcastEncoder()
        var demand = BroadcastDemand()
        demand.insert(windowBits: 15, noContext: false)
        demand.insert(windowBits: 10, noContext: true)
        let patch = SimulatedGame.patches(count: 1)[0]
        let frame = WebSocketFrameEncoder.frame(opcode: .text, payload: patch)
        let message = encoder.encode(payload: patch, opcode: .text, frame: frame, demand: demand, now: t0)
        #expect(storage(message.uncompressed) == storage(frame))
        #expect(message.compressed.count == 2)
        for frames in message.compressed {
            #expect(storage(frames.uncompressed) == storage(frame), "window \(frames.windowBits)")
            let shared = try #require(frames.shared.flatMap(decodeServerFrame))
            #expect(shared.rsv1)
            #expect(try Inflater(windowBits: frames.windowBits).decompress(shared.payload, maxBytes: 4096) == patch)
        }
    }

    @Test("publishing bytes or the same text gives the same frames")
    func sameAsText() throws {
        let patches = SimulatedGame.patches(count: 20)
        let fromText = BroadcastEncoder()
        let fromBytes = BroadcastEncoder()
        var demand = BroadcastDemand()
        demand.insert(windowBits: 15, noContext: false)
        for patch in patches {
            let text = fromText.encode(.text(String(decoding: patch, as: UTF8.self)), demand: demand, now: t0)
            let bytes = fromBytes.encode(
                payload: patch, opcode: .text, frame: WebSocketFrameEncoder.frame(opcode: .text, payload: patch),
                demand: demand, now: t0)
            #expect(text.uncompressed == bytes.uncompressed)
            #expect(text.compressed.map(\.shared) == bytes.compressed.map(\.shared))
            #expect(text.compressed.map(\.noContext) == bytes.compressed.map(\.noContext))
        }
    }
}
