import CourtsideTestSupport
import Testing

@testable import CourtsideWebSocket

/// Everything a decoder yields for `bytes` fed in the given chunks: frames, then the error if one stopped it.
private func decodeAll(
    _ bytes: [UInt8], chunking: Chunking, configuration: WebSocketFrameDecoder.Configuration = .server
) -> [WebSocketFrameDecoderResult] {
    var decoder = WebSocketFrameDecoder(configuration: configuration)
    var results: [WebSocketFrameDecoderResult] = []
    for chunk in chunking.split(bytes) {
        decoder.feed(chunk)
        decoding: while true {
            switch decoder.next() {
            case .needMoreData: break decoding
            case .frame(let frame): results.append(.frame(frame))
            case .failed(let error):
                results.append(.failed(error))
                return results
            }
        }
    }
    return results
}

/// Decodes in every chunking, expects identical results, and returns them.
private func decodeDripFed(
    _ bytes: [UInt8], configuration: WebSocketFrameDecoder.Configuration = .server,
    sourceLocation: SourceLocation = #_sourceLocation
) -> [WebSocketFrameDecoderResult] {
    let reference = decodeAll(bytes, chunking: .allAtOnce, configuration: configuration)
    for chunking in Chunking.allCases.dropFirst() {
        #expect(
            decodeAll(bytes, chunking: chunking, configuration: configuration) == reference, "chunking: \(chunking)",
            sourceLocation: sourceLocation)
    }
    return reference
}

@Suite("Frame decoder")
struct FrameDecoderTests {
    @Test("decodes RFC 6455 §5.7's masked \"Hello\" example")
    func rfcExample() {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(decodeDripFed(bytes) == [.frame(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)))])
    }

    @Test("decodes RFC 6455 §5.7's unmasked examples as a client")
    func rfcClientExamples() {
        let hello: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        let fragments: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]
        #expect(
            decodeDripFed(hello + fragments, configuration: .client) == [
                .frame(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))),
                .frame(WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8))),
                .frame(WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8))),
            ])
    }

    @Test(
        "decodes each length form: 7-bit, 16-bit and 64-bit, at their boundaries",
        arguments: [0, 125, 126, 65_535, 65_536, 70_000])
    func lengthForms(length: Int) {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let bytes = clientFrame(.binary, payload)
        let expectedHeader = length <= 125 ? 2 : (length <= 65_535 ? 4 : 10)
        #expect(bytes.count == expectedHeader + 4 + length)
        let results = length > 1000 ? decodeAll(bytes, chunking: .randomChunks(seed: 3)) : decodeDripFed(bytes)
        #expect(results == [.frame(WebSocketFrame(opcode: .binary, payload: payload))])
    }

    @Test("accepts a non-minimal length encoding")
    func nonMinimalLength() {
        // 5 bytes announced in the 16-bit form, then in the 64-bit form.
        let masked = clientFrame(.text, "Hello")
        let key = Array(masked[2..<6])
        let payload = Array(masked[6...])
        let sixteen: [UInt8] = [0x81, 0xFE, 0x00, 0x05] + key + payload
        let sixtyFour: [UInt8] = [0x81, 0xFF, 0, 0, 0, 0, 0, 0, 0, 5] + key + payload
        let hello = WebSocketFrameDecoderResult.frame(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)))
        #expect(decodeDripFed(sixteen + sixtyFour) == [hello, hello])
    }

    @Test("decodes every opcode and keeps FIN and RSV bits when they are allowed")
    func opcodesAndBits() {
        let configuration = WebSocketFrameDecoder.Configuration(allowedReservedBits: [.rsv1, .rsv2, .rsv3])
        var bytes: [UInt8] = []
        var expected: [WebSocketFrameDecoderResult] = []
        for opcode in [WebSocketOpcode.continuation, .text, .binary, .close, .ping, .pong] {
            bytes += clientFrame(opcode, [1, 2, 3])
            expected.append(.frame(WebSocketFrame(opcode: opcode, payload: [1, 2, 3])))
        }
        bytes += clientFrame(.binary, [9], fin: false, reservedBits: [.rsv1, .rsv3])
        expected.append(.frame(WebSocketFrame(fin: false, rsv1: true, rsv3: true, opcode: .binary, payload: [9])))
        #expect(decodeDripFed(bytes, configuration: configuration) == expected)
    }

    @Test("refuses reserved opcodes", arguments: [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8])
    func reservedOpcodes(opcode: UInt8) {
        let bytes: [UInt8] = [0x80 | opcode, 0x80, 1, 2, 3, 4]
        #expect(decodeDripFed(bytes) == [.failed(.reservedOpcode(opcode))])
    }

    @Test("refuses reserved bits no extension negotiated, as soon as the first byte arrives")
    func reservedBits() {
        #expect(
            decodeDripFed(clientFrame(.text, [], reservedBits: [.rsv2])) == [.failed(.reservedBitsNotNegotiated(.rsv2))]
        )
        var decoder = WebSocketFrameDecoder()
        decoder.feed([0xC1, 0x80])
        #expect(decoder.next() == .failed(.reservedBitsNotNegotiated(.rsv1)))
        let onlyRSV1 = WebSocketFrameDecoder.Configuration(allowedReservedBits: .rsv1)
        #expect(
            decodeDripFed(clientFrame(.text, [], reservedBits: [.rsv1, .rsv3]), configuration: onlyRSV1) == [
                .failed(.reservedBitsNotNegotiated(.rsv3))
            ])
    }

    @Test("refuses unmasked frames as a server and masked frames as a client")
    func masking() {
        #expect(decodeDripFed([0x81, 0x00]) == [.failed(.unmaskedClientFrame)])
        #expect(decodeDripFed(clientFrame(.text, "x"), configuration: .client) == [.failed(.maskedServerFrame)])
    }

    @Test(
        "refuses control frames over 125 bytes and fragmented control frames",
        arguments: [WebSocketOpcode.close, .ping, .pong])
    func controlFrames(opcode: WebSocketOpcode) {
        let long = WebSocketFrameEncoder.frame(
            opcode: opcode, payload: [UInt8](repeating: 0, count: 126), maskingKey: testKey)
        #expect(decodeDripFed(long) == [.failed(.controlFrameTooLong(opcode: opcode, length: 126))])
        #expect(decodeDripFed(clientFrame(opcode, [], fin: false)) == [.failed(.fragmentedControlFrame(opcode))])
        let maximal = [UInt8](repeating: 7, count: 125)
        #expect(
            decodeDripFed(clientFrame(opcode, maximal)) == [.frame(WebSocketFrame(opcode: opcode, payload: maximal))])
    }

    @Test("refuses a 64-bit length with its top bit set")
    func topBit() {
        let bytes: [UInt8] = [0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4]
        #expect(decodeDripFed(bytes) == [.failed(.payloadLengthTopBitSet)])
    }

    @Test("refuses a frame over the size limit as soon as its length is known")
    func frameLimit() {
        let configuration = WebSocketFrameDecoder.Configuration(maxFramePayloadBytes: 1000)
        var decoder = WebSocketFrameDecoder(configuration: configuration)
        decoder.feed([0x82, 0xFE, 0x03, 0xE9])  // 1001 bytes announced; nothing more sent
        #expect(decoder.next() == .failed(.frameTooLarge(length: 1001, limit: 1000)))
        let atLimit = clientFrame(.binary, [UInt8](repeating: 1, count: 1000))
        #expect(decodeAll(atLimit, chunking: .allAtOnce, configuration: configuration).count == 1)
    }

    @Test("stays failed after an error, whatever is fed next")
    func staysFailed() {
        var decoder = WebSocketFrameDecoder()
        decoder.feed([0x83, 0x80])
        #expect(decoder.next() == .failed(.reservedOpcode(3)))
        decoder.feed(clientFrame(.text, "fine"))
        #expect(decoder.next() == .failed(.reservedOpcode(3)))
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("shows the unmasked payload prefix of a frame still arriving")
    func frameInProgress() {
        let bytes = clientFrame(.text, "Hello, world")
        var decoder = WebSocketFrameDecoder()
        decoder.feed(bytes[0..<4])
        #expect(decoder.next() == .needMoreData)
        #expect(decoder.frameInProgress == nil)  // the masking key is not complete yet
        decoder.feed(bytes[4..<11])
        #expect(decoder.next() == .needMoreData)
        #expect(decoder.frameInProgress?.header.opcode == .text)
        #expect(decoder.frameInProgress?.header.payloadLength == 12)
        #expect(decoder.frameInProgress.map { Array($0.payloadPrefix) } == Array("Hello".utf8))
        decoder.feed(bytes[11...])
        #expect(decoder.next() == .frame(WebSocketFrame(opcode: .text, payload: Array("Hello, world".utf8))))
        #expect(decoder.frameInProgress == nil)
        #expect(decoder.next() == .needMoreData)
    }

    @Test("decodes many frames across compactions of its buffer")
    func manyFrames() {
        var generator = SeededGenerator(seed: 99)
        var bytes: [UInt8] = []
        var expected: [WebSocketFrameDecoderResult] = []
        for index in 0..<300 {
            let payload = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let key = WebSocketMaskingKey.random(using: &generator)
            bytes += WebSocketFrameEncoder.frame(
                opcode: .binary, payload: payload, fin: index % 3 != 0, maskingKey: key)
            expected.append(.frame(WebSocketFrame(fin: index % 3 != 0, opcode: .binary, payload: payload)))
        }
        #expect(decodeAll(bytes, chunking: .randomChunks(seed: 5)) == expected)
        #expect(decodeAll(bytes, chunking: .allAtOnce) == expected)
    }
}

@Suite("Frame decoder: memory")
struct FrameDecoderMemoryTests {
    @Test("releases a large buffer as soon as the frame is taken, and keeps a small one")
    func releasesLargeBuffer() {
        var decoder = WebSocketFrameDecoder(configuration: .server)
        decoder.feed(clientFrame(.binary, [UInt8](repeating: 7, count: 200_000)))
        guard case .frame(let frame) = decoder.next() else {
            Issue.record("no frame")
            return
        }
        #expect(frame.payload.count == 200_000)
        #expect(decoder.bufferCapacity <= WebSocketFrameDecoder.retainedCapacityBytes)
        #expect(decoder.bufferedByteCount == 0)

        decoder.feed(clientFrame(.text, "small"))
        guard case .frame = decoder.next() else {
            Issue.record("no frame")
            return
        }
        let kept = decoder.bufferCapacity
        #expect(kept > 0 && kept <= WebSocketFrameDecoder.retainedCapacityBytes, "a small buffer is reused")
    }

    @Test("a frame split over reads still decodes after the buffer was released")
    func decodesAfterRelease() {
        var decoder = WebSocketFrameDecoder(configuration: .server)
        decoder.feed(clientFrame(.binary, [UInt8](repeating: 1, count: 70_000)))
        _ = decoder.next()
        let next = clientFrame(.text, "after")
        decoder.feed(next[..<3])
        #expect(decoder.next() == .needMoreData)
        decoder.feed(next[3...])
        #expect(decoder.next() == .frame(WebSocketFrame(fin: true, opcode: .text, payload: Array("after".utf8))))
    }
}
