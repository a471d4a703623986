import CourtsideTestSupport
import CourtsideWebSocket
import CourtsideWebSocketDeflate
import Testing

/// One simulated subscriber: the server-side state the compressor's API asks net to keep, and a raw zlib
/// client fed exactly the frames chosen for it.
private final class Subscriber {
    var state: BroadcastSubscriberState
    let client: SimulatedClient
    let serverNoContextTakeover: Bool
    var expected: [[UInt8]] = []
    var sharedFrames = 0

    init(windowBits: Int, serverNoContextTakeover: Bool = false) throws {
        state = BroadcastSubscriberState(serverNoContextTakeover: serverNoContextTakeover)
        client = try SimulatedClient(windowBits: windowBits)
        self.serverNoContextTakeover = serverNoContextTakeover
    }

    /// Sends the chosen variant, which the client decodes as a browser would.
    func deliver(_ frames: BroadcastFrames, payload: [UInt8]) throws {
        let variant = state.select(frames)
        if variant == .shared { sharedFrames += 1 }
        if serverNoContextTakeover && variant != .uncompressed {
            client.inflater.reset()  // what a client that agreed server_no_context_takeover may do
        }
        try client.receive(frames.bytes(for: variant))
        expected.append(payload)
    }
}

@Suite("Shared compression for broadcast")
struct BroadcastTests {
    @Test("raw zlib clients decode every message exactly, with subscribers joining, resyncing and dropping midway")
    func simulation() throws {
        let patches = SimulatedGame.patches(count: 600)
        var generator = SeededGenerator(seed: 11)
        var configuration = BroadcastCompressor.Configuration()
        configuration.noContextMinimumBytes = 180  // exercise no-context frames on the larger patches too
        let compressors = try [15, 10, 8].map { try BroadcastCompressor(windowBits: $0, configuration: configuration) }
        compressors[0].needsNoContextFrames = true
        // Per window: joined from the start; joins at 100; joins at 250 with drops; no-context; resyncs often.
        var groups: [[Subscriber]] = try compressors.map { compressor in
            [try Subscriber(windowBits: compressor.windowBits)]
        }
        groups[0].append(try Subscriber(windowBits: 15, serverNoContextTakeover: true))
        let resyncing = try Subscriber(windowBits: 15)
        groups[0].append(resyncing)
        var dropping: [Subscriber] = []
        var now = t0
        for (index, patch) in patches.enumerated() {
            now += .milliseconds(Int.random(in: 100...3000, using: &generator))
            if index == 100 || index == 250 {
                for (group, compressor) in zip(groups.indices, compressors) {
                    let joiner = try Subscriber(windowBits: compressor.windowBits)
                    groups[group].append(joiner)
                    if index == 250 { dropping.append(joiner) }
                    compressor.requestSyncPoint()
                }
            }
            if index % 97 == 50 {
                resyncing.state.markOutOfSync()  // e.g. its owner sent it a snapshot compressed on its own
                compressors[0].requestSyncPoint()
            }
            for (group, compressor) in zip(groups, compressors) {
                let frames = compressor.compress(payload: patch, opcode: .text, now: now)
                for subscriber in group {
                    if dropping.contains(where: { $0 === subscriber }) && Int.random(in: 0..<20, using: &generator) == 0
                    {
                        if Bool.random(using: &generator) {
                            // Chosen, then dropped by backpressure: the owner says so.
                            _ = subscriber.state.select(frames)
                            subscriber.state.markOutOfSync()
                        }  // else never offered: the sequence gap is noticed on the next message
                        if Bool.random(using: &generator) { compressor.requestSyncPoint() }
                        continue
                    }
                    try subscriber.deliver(frames, payload: patch)
                }
            }
        }
        for group in groups {
            for subscriber in group {
                #expect(subscriber.client.received == subscriber.expected)
                #expect(subscriber.client.received.count >= 300)
            }
            // Subscribers that stay joined take the shared frames: all but none; joiners catch up.
            #expect(group[0].sharedFrames == 600)
        }
        // The subscriber that joined at message 100 and the one resyncing every 97 messages wait little.
        for group in groups { #expect(group[group.count - 2].sharedFrames >= 450) }
        #expect(resyncing.sharedFrames >= 500)
        #expect(groups[0][1].sharedFrames == 0)  // server_no_context_takeover
        #expect(groups[0][1].client.compressedFrames > 0)
        for compressor in compressors { #expect(compressor.statistics.syncPoints > 10) }
    }

    @Test("one client inflater takes a connection's own compressed messages and two channels' broadcasts")
    func connectionInterplay() throws {
        let parameters = PerMessageDeflateParameters()
        let connection = PerMessageDeflateConnection(parameters: parameters, configuration: .init())
        let client = try SimulatedClient(windowBits: 15)
        let game = try BroadcastCompressor(windowBits: 15)
        let other = try BroadcastCompressor(windowBits: 15)
        var expected: [[UInt8]] = []
        var now = t0
        let patches = SimulatedGame.patches(count: 300, seed: 5)
        for (index, patch) in patches.enumerated() {
            now += .seconds(1)
            try client.receive(connection.frame(for: game.compress(payload: patch, opcode: .text, now: now)))
            expected.append(patch)
            if index % 10 == 3 {
                let own = Array("{\"type\":\"snapshot\",\"seq\":\(index),\"home\":\(index * 3)}".utf8) + patch
                try client.receive(connection.frame(for: .text(String(decoding: own, as: UTF8.self))))
                expected.append(own)
                game.requestSyncPoint()
            }
            if index % 25 == 7 {
                let otherPatch = patches[(index * 7) % patches.count]
                try client.receive(connection.frame(for: other.compress(payload: otherPatch, opcode: .text, now: now)))
                expected.append(otherPatch)
                game.requestSyncPoint()
            }
        }
        #expect(client.received == expected)
        #expect(connection.memoryUsage.currentBytes > 0)  // its own deflater exists, used for the snapshots
    }

    @Test("all subscribers joined: bytes on the wire below 0.4 of the plain frames on the simulated game")
    func ratio() throws {
        let patches = SimulatedGame.patches(count: 2000)
        let compressor = try BroadcastCompressor(windowBits: 15)
        var plain = 0
        var shared = 0
        var now = t0
        for patch in patches {
            now += .seconds(2)
            let frames = compressor.compress(payload: patch, opcode: .text, now: now)
            plain += frames.uncompressed.count
            shared += frames.bytes(for: frames.shared == nil ? .uncompressed : .shared).count
        }
        let ratio = Double(shared) / Double(plain)
        #expect(ratio < 0.4)
        #expect(ratio > 0.05)  // sanity: the frames carry the data
        #expect(compressor.statistics.syncPoints == 32)  // first message, then every 64
    }

    @Test("a requested sync point comes after 16 compressed messages or 30 s since the last one")
    func requestedSync() throws {
        let compressor = try BroadcastCompressor(windowBits: 15)
        let patches = SimulatedGame.patches(count: 40)
        var now = t0
        func publish(_ index: Int, after delay: Duration = .milliseconds(1)) -> BroadcastFrames {
            now += delay
            return compressor.compress(payload: patches[index], opcode: .text, now: now)
        }
        #expect(publish(0).isSyncPoint)  // the stream's first message
        compressor.requestSyncPoint()
        #expect(!publish(1, after: .seconds(29)).isSyncPoint)
        let byTime = publish(2, after: .seconds(1))
        #expect(byTime.isSyncPoint)
        #expect(byTime.noContext == byTime.shared)  // compressed from an empty window: one array for both
        // A waiting subscriber gets plain frames, then joins at the sync point 16 messages after the last.
        var state = BroadcastSubscriberState()
        compressor.requestSyncPoint()
        for index in 3...17 {
            let frames = publish(index)
            #expect(!frames.isSyncPoint)
            // The no-context frame when the patch is long enough to have one, else the plain frame.
            #expect(state.select(frames) == (frames.noContext == nil ? .uncompressed : .noContext))
        }
        #expect(state.select(publish(18)) == .shared)
        #expect(state.isInSync)
        #expect(state.select(publish(19)) == .shared)
        state.markOutOfSync()
        #expect(state.select(publish(20)) != .shared)
        // Without any request, every 64th compressed message is a sync point.
        let unrequested = (21..<40).map { publish($0).isSyncPoint }
        #expect(!unrequested.contains(true))
    }

    @Test("tiny messages go plain to everyone, bypass the shared stream and keep subscribers in sync")
    func tinyMessages() throws {
        let compressor = try BroadcastCompressor(windowBits: 15)
        var state = BroadcastSubscriberState()
        let patch = SimulatedGame.patches(count: 1)[0]
        #expect(state.select(compressor.compress(payload: patch, opcode: .text, now: t0)) == .shared)
        let tiny = compressor.compress(payload: Array("{}".utf8), opcode: .text, now: t0)
        #expect(tiny.shared == nil && tiny.noContext == nil)
        #expect(decodeServerFrame(tiny.uncompressed) == WebSocketFrame(opcode: .text, payload: Array("{}".utf8)))
        #expect(state.select(tiny) == .uncompressed)
        #expect(state.isInSync)
        #expect(state.select(compressor.compress(payload: patch, opcode: .text, now: t0)) == .shared)
    }

    @Test("frames are complete WebSocket frames: RSV1 on the compressed ones, the opcode kept")
    func frameShape() throws {
        let compressor = try BroadcastCompressor(windowBits: 15)
        compressor.needsNoContextFrames = true
        let payload = Array(String(repeating: "binary scoreboard ", count: 20).utf8)
        _ = compressor.compress(payload: payload, opcode: .binary, now: t0)
        let frames = compressor.compress(payload: payload, opcode: .binary, now: t0)
        let sharedBytes = try #require(frames.shared)
        let noContextBytes = try #require(frames.noContext)
        let shared = try #require(decodeServerFrame(sharedBytes))
        let noContext = try #require(decodeServerFrame(noContextBytes))
        let plain = try #require(decodeServerFrame(frames.uncompressed))
        #expect(shared.rsv1 && noContext.rsv1 && !plain.rsv1)
        #expect(shared.opcode == .binary && noContext.opcode == .binary && plain.opcode == .binary)
        #expect(plain.payload == payload)
        #expect(shared.payload.count < noContext.payload.count)
        #expect(try Inflater(windowBits: 15).decompress(noContext.payload, maxBytes: 1000) == payload)
    }

    @Test("per-subscriber state is 16 bytes at most and holds no zlib stream")
    func stateSize() {
        #expect(MemoryLayout<BroadcastSubscriberState>.size <= 16)
    }
}
