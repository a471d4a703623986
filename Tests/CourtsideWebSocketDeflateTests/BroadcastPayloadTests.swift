import CourtsideWebSocket
import CourtsideWebSocketDeflate
import Testing

/// The address of an array's storage: the same address means the same buffer, not an equal copy.
private func storage(_ bytes: [UInt8]) -> UnsafeRawPointer? {
    bytes.withUnsafeBytes { $0.baseAddress }
}

@Suite("Broadcast payload: a message published as bytes, framed once")
struct BroadcastPayloadTests {
    @Test("the frame is the payload as one plain frame of its opcode, and the payload is the caller's array")
    func frame() throws {
        let json = Array(#"{"seq":7,"type":"patch","v":1,"note":"é ✓"}"#.utf8)
        let text = try BroadcastPayload(text: json)
        #expect(text.opcode == .text)
        #expect(decodeServerFrame(text.frame) == WebSocketFrame(opcode: .text, payload: json))
        #expect(storage(text.payload) == storage(json), "kept, not copied")
        let binary = BroadcastPayload(binary: [0, 255, 7])
        #expect(decodeServerFrame(binary.frame) == WebSocketFrame(opcode: .binary, payload: [0, 255, 7]))
        let message = BroadcastPayload(.text("héllo"))
        #expect(message.frame == WebSocketFrameEncoder.frame(opcode: .text, payload: Array("héllo".utf8)))
    }

    @Test("text that is not UTF-8 is refused, naming the first bad byte (RFC 6455 §5.6)")
    func invalidUTF8() {
        #expect(throws: BroadcastPayloadError.invalidUTF8(offset: 3)) {
            try BroadcastPayload(text: [0x7B, 0x22, 0x61, 0xFF, 0x7D])
        }
        #expect(throws: BroadcastPayloadError.invalidUTF8(offset: 2)) {
            try BroadcastPayload(text: [0x61, 0xED, 0xA0, 0x80])  // a UTF-16 surrogate: ED takes 80-9F only
        }
        // A character cut short at the end.
        #expect(throws: BroadcastPayloadError.invalidUTF8(offset: 2)) { try BroadcastPayload(text: [0x61, 0xC3]) }
    }

    @Test("the encoder and every compressor take the payload's frame as the plain variant, never building another")
    func plainFrameReused() throws {
        let encoder = BroadcastEncoder()
        var demand = BroadcastDemand()
        demand.insert(windowBits: 15, noContext: false)
        demand.insert(windowBits: 10, noContext: true)
        let patch = SimulatedGame.patches(count: 1)[0]
        let payload = try BroadcastPayload(text: patch)
        let message = encoder.encode(payload, demand: demand, now: t0)
        #expect(storage(message.uncompressed) == storage(payload.frame))
        #expect(message.compressed.count == 2)
        for frames in message.compressed {
            #expect(storage(frames.uncompressed) == storage(payload.frame), "window \(frames.windowBits)")
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
            let bytes = fromBytes.encode(try BroadcastPayload(text: patch), demand: demand, now: t0)
            #expect(text.uncompressed == bytes.uncompressed)
            #expect(text.compressed.map(\.shared) == bytes.compressed.map(\.shared))
            #expect(text.compressed.map(\.noContext) == bytes.compressed.map(\.noContext))
        }
    }
}
