import CourtsideTestSupport
import Testing

@testable import CourtsideWebSocket

@Suite("Frame encoder")
struct FrameEncoderTests {
    @Test("encodes RFC 6455 §5.7's examples byte for byte")
    func rfcExamples() {
        #expect(WebSocketFrameEncoder.text("Hello") == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(
            WebSocketFrameEncoder.text("Hello", maskingKey: testKey) == [
                0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58,
            ])
        #expect(
            WebSocketFrameEncoder.frame(opcode: .text, payload: Array("Hel".utf8), fin: false) == [
                0x01, 0x03, 0x48, 0x65, 0x6C,
            ])
        #expect(WebSocketFrameEncoder.ping(Array("Hello".utf8)) == [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(WebSocketFrameEncoder.header(opcode: .binary, payloadLength: 256) == [0x82, 0x7E, 0x01, 0x00])
        #expect(
            WebSocketFrameEncoder.header(opcode: .binary, payloadLength: 65_536) == [
                0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0,
            ])
    }

    @Test("round-trips frames of every kind and size through the decoder, masked and unmasked")
    func roundTrip() {
        var generator = SeededGenerator(seed: 11)
        for length in [0, 1, 7, 8, 9, 125, 126, 127, 65_535, 65_536, 100_003] {
            let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for opcode in [WebSocketOpcode.text, .binary, .continuation] {
                let key = WebSocketMaskingKey.random(using: &generator)
                let frame = WebSocketFrame(fin: length % 2 == 0, rsv1: true, opcode: opcode, payload: payload)
                var server = WebSocketFrameDecoder(configuration: .init(allowedReservedBits: .rsv1))
                server.feed(WebSocketFrameEncoder.frame(frame, maskingKey: key))
                #expect(server.next() == .frame(frame), "length \(length)")
                var client = WebSocketFrameDecoder(
                    configuration: .init(maskPolicy: .forbidden, allowedReservedBits: .rsv1))
                client.feed(WebSocketFrameEncoder.frame(frame))
                #expect(client.next() == .frame(frame), "length \(length)")
            }
        }
    }

    @Test("a header alone followed by the shared payload equals the whole frame")
    func headerOnly() {
        let payload = [UInt8](repeating: 0x5A, count: 70_000)
        let header = WebSocketFrameEncoder.header(opcode: .text, payloadLength: payload.count, reservedBits: .rsv1)
        #expect(header + payload == WebSocketFrameEncoder.frame(opcode: .text, payload: payload, reservedBits: .rsv1))
    }

    @Test("builds close frames with the code and a reason cut at a character boundary to 123 bytes")
    func closeFrames() {
        #expect(WebSocketFrameEncoder.close(code: nil) == [0x88, 0x00])
        #expect(
            WebSocketFrameEncoder.close(code: .normalClosure, reason: "bye") == [0x88, 0x05, 0x03, 0xE8]
                + Array("bye".utf8))
        let long = String(repeating: "é", count: 100)  // 200 bytes of two-byte characters
        let payload = WebSocketFrameEncoder.closePayload(code: .goingAway, reason: long)
        #expect(payload.count == 2 + 122)
        var validator = UTF8Validator()
        #expect(validator.validate(payload[2...]) == nil && validator.isAtCharacterBoundary)
    }

    @Test("masking a buffer at any offset matches masking byte by byte")
    func maskingOffsets() {
        var generator = SeededGenerator(seed: 17)
        let key = WebSocketMaskingKey.random(using: &generator)
        let original = (0..<61).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for offset in 0..<8 {
            for start in 0..<5 {
                var fast = original
                key.apply(to: &fast, range: start..<original.count, offset: offset)
                var slow = original
                for index in start..<original.count { slow[index] ^= key[offset + index - start] }
                #expect(fast == slow, "offset \(offset), start \(start)")
            }
        }
    }
}
