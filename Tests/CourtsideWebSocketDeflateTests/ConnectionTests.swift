import CourtsideWebSocket
import CourtsideWebSocketDeflate
import Testing

/// A client that compresses like a browser or Python's `websockets`: its own raw zlib streams.
private final class DeflateClient {
    let parameters: PerMessageDeflateParameters
    let deflater: Deflater
    let inflater: Inflater
    let key = WebSocketMaskingKey(0x12, 0x34, 0x56, 0x78)

    init(_ parameters: PerMessageDeflateParameters) throws {
        self.parameters = parameters
        deflater = try Deflater(windowBits: parameters.clientMaxWindowBits)
        inflater = try Inflater(windowBits: parameters.serverMaxWindowBits)
    }

    /// A masked, compressed single-frame message.
    func compressedFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [UInt8] {
        let compressed = deflater.compress(payload)
        if parameters.clientNoContextTakeover { deflater.reset() }
        return WebSocketFrameEncoder.frame(opcode: opcode, payload: compressed, reservedBits: .rsv1, maskingKey: key)
    }

    /// What the client reads from a server frame.
    func read(_ bytes: [UInt8]) throws -> [UInt8] {
        let frame = try #require(decodeServerFrame(bytes))
        guard frame.rsv1 else { return frame.payload }
        if parameters.serverNoContextTakeover { inflater.reset() }
        return try inflater.decompress(frame.payload, maxBytes: 1 << 24)
    }
}

private func connection(
    _ extension: PerMessageDeflateConnection, maxMessageBytes: Int = 1 << 20
) -> WebSocketConnectionStateMachine {
    WebSocketConnectionStateMachine(
        configuration: .init(maxMessageBytes: maxMessageBytes, idlePingInterval: nil), messageExtension: `extension`,
        now: t0)
}

/// The close code of the close frame among `actions`, if any.
private func closeCode(_ actions: [WebSocketAction]) -> UInt16? {
    for case .write(let bytes) in actions {
        if let frame = decodeServerFrame(bytes), frame.opcode == .close, frame.payload.count >= 2 {
            return UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
        }
    }
    return nil
}

private func delivered(_ actions: [WebSocketAction]) -> [WebSocketMessage] {
    actions.compactMap { if case .deliver(let message) = $0 { message } else { nil } }
}

@Suite("permessage-deflate on a connection")
struct ConnectionTests {
    let defaults = PerMessageDeflateConfiguration()

    @Test("inflates compressed messages with context takeover, whether read all at once, byte by byte or in chunks")
    func receivesCompressed() throws {
        let patches = SimulatedGame.patches(count: 40)
        for chunk in [Int.max, 1, 7] {
            let client = try DeflateClient(PerMessageDeflateParameters())
            var machine = connection(
                PerMessageDeflateConnection(parameters: client.parameters, configuration: defaults))
            let bytes = patches.flatMap { client.compressedFrame(.text, $0) }
            var actions: [WebSocketAction] = []
            var index = 0
            while index < bytes.count {
                let end = min(bytes.count, index.addingReportingOverflow(chunk).overflow ? bytes.count : index + chunk)
                actions += machine.bytesReceived(bytes[index..<end], now: t0)
                index = end
            }
            #expect(delivered(actions) == patches.map { .text(String(decoding: $0, as: UTF8.self)) })
        }
    }

    @Test("a fragmented compressed message has RSV1 on its first frame only and is inflated whole")
    func fragmented() throws {
        let client = try DeflateClient(PerMessageDeflateParameters())
        let deflate = PerMessageDeflateConnection(parameters: client.parameters, configuration: defaults)
        var machine = connection(deflate)
        let message = Array(String(repeating: "home 7 - away 5; ", count: 30).utf8)
        let compressed = client.deflater.compress(message)
        let split = compressed.count / 2
        let bytes =
            WebSocketFrameEncoder.frame(
                opcode: .binary, payload: compressed[..<split], fin: false, reservedBits: .rsv1, maskingKey: client.key)
            + WebSocketFrameEncoder.frame(opcode: .continuation, payload: compressed[split...], maskingKey: client.key)
        #expect(delivered(machine.bytesReceived(bytes, now: t0)) == [.binary(message)])
    }

    @Test("RSV1 on a continuation frame fails the connection with 1002")
    func rsv1OnContinuation() throws {
        let client = try DeflateClient(PerMessageDeflateParameters())
        var machine = connection(PerMessageDeflateConnection(parameters: client.parameters, configuration: defaults))
        let compressed = client.deflater.compress(Array("Hello, hello".utf8))
        let bytes =
            WebSocketFrameEncoder.frame(
                opcode: .text, payload: compressed.prefix(3), fin: false, reservedBits: .rsv1, maskingKey: client.key)
            + WebSocketFrameEncoder.frame(
                opcode: .continuation, payload: compressed.dropFirst(3), reservedBits: .rsv1, maskingKey: client.key)
        #expect(closeCode(machine.bytesReceived(bytes, now: t0)) == 1002)
    }

    @Test("uncompressed messages pass on a deflate connection and never allocate an inflater")
    func uncompressedAllowed() throws {
        let deflate = PerMessageDeflateConnection(parameters: PerMessageDeflateParameters(), configuration: defaults)
        var machine = connection(deflate)
        let key = WebSocketMaskingKey(1, 2, 3, 4)
        let actions = machine.bytesReceived(WebSocketFrameEncoder.text("plain", maskingKey: key), now: t0)
        #expect(delivered(actions) == [.text("plain")])
        #expect(deflate.memoryUsage == ZlibMemoryUsage())
    }

    @Test("the message limit applies to the inflated size: a small frame that inflates past it closes 1009")
    func inflatedLimit() throws {
        let client = try DeflateClient(PerMessageDeflateParameters())
        var machine = connection(
            PerMessageDeflateConnection(parameters: client.parameters, configuration: defaults), maxMessageBytes: 4096)
        let frame = client.compressedFrame(.binary, [UInt8](repeating: 0x41, count: 64 * 1024 * 1024))
        #expect(frame.count < 100_000)
        #expect(closeCode(machine.bytesReceived(frame, now: t0)) == 1009)
    }

    @Test("a connection's own inflated limit stops a compression bomb that passes the wire limit, after little work")
    func inflatedLimitPerConnection() throws {
        let client = try DeflateClient(PerMessageDeflateParameters())
        var machine = connection(PerMessageDeflateConnection(parameters: client.parameters, configuration: defaults))
        machine.limits = WebSocketMessageLimits(maxMessageBytes: 64 * 1024, maxInflatedMessageBytes: 8 * 1024)
        // 16 MiB of JSON-ish text compressed to a few KiB: under the wire limit, far over the inflated one.
        let bomb = client.compressedFrame(.text, Array(("[" + String(repeating: "0,", count: 8 << 20)).utf8))
        #expect(bomb.count < 64 * 1024)
        let start = ContinuousClock.now
        let actions = machine.bytesReceived(bomb, now: t0)
        #expect(closeCode(actions) == 1009)
        #expect(delivered(actions).isEmpty)
        // Inflating all 16 MiB took about a second of a loop's CPU before the limit; stopping at 8 KiB is instant.
        #expect(ContinuousClock.now - start < .milliseconds(100))
    }

    @Test("corrupt deflate data closes 1007")
    func corrupt() throws {
        var machine = connection(
            PerMessageDeflateConnection(parameters: PerMessageDeflateParameters(), configuration: defaults))
        let bytes = WebSocketFrameEncoder.frame(
            opcode: .text, payload: [0xFF, 0xEE, 0xDD], reservedBits: .rsv1, maskingKey: WebSocketMaskingKey(1, 2, 3, 4)
        )
        #expect(closeCode(machine.bytesReceived(bytes, now: t0)) == 1007)
    }

    @Test("compressed text that inflates to invalid UTF-8 closes 1007")
    func invalidUTF8() throws {
        let client = try DeflateClient(PerMessageDeflateParameters())
        var machine = connection(PerMessageDeflateConnection(parameters: client.parameters, configuration: defaults))
        #expect(closeCode(machine.bytesReceived(client.compressedFrame(.text, [0x61, 0xFF, 0x62]), now: t0)) == 1007)
    }

    @Test(
        "echoes messages compressed under every combination of agreed parameters (as Autobahn 12.x/13.x do)",
        arguments: [false, true], [false, true])
    func echo(serverNoContext: Bool, clientNoContext: Bool) throws {
        let patches = SimulatedGame.patches(count: 30) + [[], Array("tiny".utf8)]
        for serverBits in [8, 9, 12, 15] {
            for clientBits in [8, 9, 15] {
                let parameters = PerMessageDeflateParameters(
                    serverNoContextTakeover: serverNoContext, clientNoContextTakeover: clientNoContext,
                    serverMaxWindowBits: serverBits, clientMaxWindowBits: clientBits)
                let client = try DeflateClient(parameters)
                let deflate = PerMessageDeflateConnection(parameters: parameters, configuration: defaults)
                var machine = connection(deflate)
                var echoed: [[UInt8]] = []
                var compressedEchoes = 0
                for patch in patches {
                    for message in delivered(machine.bytesReceived(client.compressedFrame(.binary, patch), now: t0)) {
                        let frame = deflate.frame(for: message)
                        if decodeServerFrame(frame)?.rsv1 == true { compressedEchoes += 1 }
                        echoed.append(try client.read(frame))
                    }
                }
                #expect(echoed == patches, "server \(serverBits) client \(clientBits)")
                #expect(compressedEchoes == 30)  // the empty and the 4-byte message go plain
            }
        }
    }

    @Test("streams are allocated on first use and released on request; messages decode across a release")
    func lazyStreams() throws {
        let parameters = PerMessageDeflateParameters(clientNoContextTakeover: true)
        let client = try DeflateClient(parameters)
        let deflate = PerMessageDeflateConnection(parameters: parameters, configuration: defaults)
        var machine = connection(deflate)
        #expect(deflate.memoryUsage.currentBytes == 0)
        let patches = SimulatedGame.patches(count: 6)
        _ = machine.bytesReceived(client.compressedFrame(.text, patches[0]), now: t0)
        let inflaterOnly = deflate.memoryUsage.currentBytes
        #expect(inflaterOnly > 30_000 && inflaterOnly < 50_000)
        #expect(try client.read(deflate.frame(for: .binary(patches[1]))) == patches[1])
        #expect(deflate.memoryUsage.currentBytes > 250_000)
        deflate.releaseStreams()
        #expect(deflate.memoryUsage.currentBytes == 0)
        #expect(try client.read(deflate.frame(for: .binary(patches[2]))) == patches[2])
        let received = delivered(machine.bytesReceived(client.compressedFrame(.text, patches[3]), now: t0))
        #expect(received == [.text(String(decoding: patches[3], as: UTF8.self))])
    }
}
