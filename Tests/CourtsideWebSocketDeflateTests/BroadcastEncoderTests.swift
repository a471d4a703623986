import CourtsideWebSocket
import CourtsideWebSocketDeflate
import Testing

@Suite("Broadcast encoder: one compressor per agreed window")
struct BroadcastEncoderTests {
    private func connection(windowBits: Int = 15, noContext: Bool = false) -> PerMessageDeflateConnection {
        PerMessageDeflateConnection(
            parameters: PerMessageDeflateParameters(
                serverNoContextTakeover: noContext, serverMaxWindowBits: windowBits),
            configuration: PerMessageDeflateConfiguration())
    }

    @Test("encodes the plain frame only when no subscriber compresses, and holds no zlib memory")
    func plainOnly() {
        let encoder = BroadcastEncoder()
        let message = encoder.encode(.text(String(repeating: "score ", count: 40)), demand: BroadcastDemand(), now: t0)
        #expect(message.compressed.isEmpty)
        #expect(decodeServerFrame(message.uncompressed)?.rsv1 == false)
        #expect(encoder.memoryUsage.currentBytes == 0)
    }

    @Test("builds frames for exactly the windows in demand, and frees a compressor whose window has no subscribers")
    func windows() {
        let encoder = BroadcastEncoder()
        var demand = BroadcastDemand()
        demand.insert(windowBits: 15, noContext: false)
        demand.insert(windowBits: 10, noContext: true)
        let patch = SimulatedGame.patches(count: 1)[0]
        let message = encoder.encode(.binary(patch), demand: demand, now: t0)
        #expect(message.compressed.map(\.windowBits) == [10, 15])
        #expect(message.frames(forWindowBits: 12) == nil)
        let both = encoder.memoryUsage.currentBytes
        #expect(both > 0)

        var narrower = BroadcastDemand()
        narrower.insert(windowBits: 15, noContext: false)
        _ = encoder.encode(.binary(patch), demand: narrower, now: t0)
        #expect(encoder.memoryUsage.currentBytes < both, "the 10-bit compressor is freed")
        #expect(encoder.statistics(windowBits: 10) == nil)
        #expect(encoder.statistics(windowBits: 15)?.messages == 2)
    }

    @Test("subscribers of each window decode every message exactly, joining midway and after a dropped frame")
    func decodeThroughConnections() throws {
        let encoder = BroadcastEncoder()
        let patches = SimulatedGame.patches(count: 300)
        struct Subscriber {
            let connection: PerMessageDeflateConnection
            let client: SimulatedClient
            var expected: [[UInt8]] = []
        }
        var subscribers: [Subscriber] = []
        var demand = BroadcastDemand()
        for (index, patch) in patches.enumerated() {
            if index % 60 == 0 {
                // Joins: 15, 12, 9 and a no-context subscriber of 15, in turn.
                let windowBits = [15, 12, 9, 15, 12][index / 60]
                let noContext = index == 180
                let joiner = connection(windowBits: windowBits, noContext: noContext)
                subscribers.append(Subscriber(connection: joiner, client: try SimulatedClient(windowBits: windowBits)))
                demand.insert(joiner.parameters)
                encoder.requestSyncPoint()
            }
            let message = encoder.encode(.binary(patch), demand: demand, now: t0)
            for position in subscribers.indices {
                let frame = subscribers[position].connection.frame(for: message)
                if index % 97 == 0 && position == 0 {
                    subscribers[position].connection.broadcastFrameDropped()  // backpressure dropped it
                    continue
                }
                try subscribers[position].client.receive(frame)
                subscribers[position].expected.append(patch)
            }
        }
        for subscriber in subscribers {
            #expect(subscriber.client.received == subscriber.expected)
        }
        #expect(subscribers[0].client.compressedFrames > 200, "the first subscriber follows the shared stream")
    }

    @Test("a deflate connection's send hook compresses its own messages; closing frees its streams")
    func sendHookAndClose() throws {
        let deflate = connection()
        var machine = WebSocketConnectionStateMachine(messageExtension: deflate, now: t0)
        let text = String(repeating: "{\"score\":\"21 - 19\"}", count: 10)
        guard case .write(let bytes)? = machine.send(.text(text)).first else {
            Issue.record("no frame written")
            return
        }
        let client = try SimulatedClient(windowBits: 15)
        try client.receive(bytes)
        #expect(client.compressedFrames == 1)
        #expect(client.received == [Array(text.utf8)])
        #expect(deflate.memoryUsage.currentBytes > 0)
        deflate.connectionClosed()
        #expect(deflate.memoryUsage.currentBytes == 0)
    }

    @Test("an inflater that cannot be allocated is our failure: 1011")
    func resourceFailureCode() {
        #expect(WebSocketProtocolError.extensionResourceFailure("inflater").closeCode == .internalError)
    }
}
