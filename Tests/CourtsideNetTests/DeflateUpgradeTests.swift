import CourtsideTestSupport
import Testing

@testable import CourtsideNet

@Suite("permessage-deflate at the upgrade", .serialized, .ownThread)
struct DeflateUpgradeTests {
    private let offer = "permessage-deflate; client_max_window_bits"

    static func deflateOn(_ configuration: inout HTTPServer.Configuration) {
        configuration.perMessageDeflate = PerMessageDeflateConfiguration()
    }

    @Test("negotiated when configured: the 101 states it, and echoes come back compressed when that pays")
    func negotiatedEcho() async throws {
        try await withServer(configure: Self.deflateOn) { server in
            let client = try DeflateTestClient(port: server.localAddress.port, path: "/ws", offer: offer)
            #expect(client.extensionResponse == "permessage-deflate")
            let patch = patchMessage(1)
            // The client compresses too (context takeover across its messages); the server inflates.
            for seq in 1...3 {
                try client.send(text: patchMessage(seq), compressed: true)
                #expect(try client.readMessage() == .init(text: patchMessage(seq), compressed: true))
            }
            try client.send(text: patch, compressed: false)
            #expect(try client.readMessage() == .init(text: patch, compressed: true), "plain in, compressed out")
            try client.send(text: "hi", compressed: false)
            #expect(try client.readMessage() == .init(text: "hi", compressed: false), "too small to pay")
        }
    }

    @Test("the server's window limit is stated and obeyed")
    func windowLimit() async throws {
        var preferences = PerMessageDeflateConfiguration()
        preferences.serverMaxWindowBits = 10
        let narrow: (inout HTTPServer.Configuration) -> Void = { $0.perMessageDeflate = preferences }
        try await withServer(configure: narrow) { server in
            let client = try DeflateTestClient(port: server.localAddress.port, path: "/ws", offer: offer)
            #expect(client.extensionResponse == "permessage-deflate; server_max_window_bits=10")
            for seq in 0..<20 {
                try client.send(text: patchMessage(seq, padding: 900))
                #expect(try client.readMessage().text == patchMessage(seq, padding: 900))
            }
        }
    }

    @Test("not negotiated when off, or when every offer is malformed: plain frames both ways")
    func declined() async throws {
        try await withServer { server in
            let client = try DeflateTestClient(port: server.localAddress.port, path: "/ws", offer: offer)
            #expect(client.extensionResponse == nil)
            try client.send(text: patchMessage(1))
            #expect(try client.readMessage() == .init(text: patchMessage(1), compressed: false))
        }
        try await withServer(configure: Self.deflateOn) { server in
            let client = try DeflateTestClient(
                port: server.localAddress.port, path: "/ws",
                offer: "permessage-deflate; server_max_window_bits=7, permessage-deflate; bogus")
            #expect(client.extensionResponse == nil)
            // RSV1 is then a protocol error (RFC 6455 §5.2).
            try client.client.send(TestClient.frame(opcode: 0x1, payload: [0xF2, 0x00], rsv: 4))
            #expect(try client.client.readCloseCode() == 1002)
        }
    }

    @Test("the message limit applies to the inflated size: a small deflate bomb closes with 1009")
    func inflatedLimit() async throws {
        let limited: (inout HTTPServer.Configuration) -> Void = {
            $0.perMessageDeflate = PerMessageDeflateConfiguration()
            $0.webSocket.maxMessageBytes = 64 * 1024
        }
        try await withServer(configure: limited) { server in
            let client = try DeflateTestClient(port: server.localAddress.port, path: "/ws", offer: offer)
            // 8 MiB of zeros deflate to about 8 KB: far under the limit on the wire, far over it inflated.
            let bomb = try Deflater(windowBits: 15).compress([UInt8](repeating: 0, count: 8 << 20))
            #expect(bomb.count < 16 * 1024)
            try client.client.send(TestClient.frame(opcode: 0x2, payload: bomb, rsv: 4))
            #expect(try client.client.readCloseCode() == 1009)
        }
    }

    @Test("a deflate socket frees its zlib streams when it closes")
    func streamsFreed() async throws {
        try await withChannelServer { server in
            let client = try DeflateTestClient(port: server.port, path: "/echo?z", offer: offer)
            // Once the compressed echo is back, the server has an inflater and a deflater for this socket.
            try client.send(text: patchMessage(3), compressed: true)
            #expect(try client.readMessage() == .init(text: patchMessage(3), compressed: true))
            let open = await server.onEveryLoop { _, sockets in
                sockets.first { $0.query == "z" }.map { $0.deflateMemoryUsage.currentBytes } ?? -1
            }
            #expect(open.contains { $0 > 0 })
            // The socket object outlives the connection in the handler's hands; its streams must not.
            let held = LockedValue<UnsafeSendableBox<WebSocket>?>(nil)
            _ = await server.onEveryLoop { _, sockets in
                for socket in sockets where socket.query == "z" { held.withLock { $0 = UnsafeSendableBox(socket) } }
                return 0
            }
            try client.client.send(TestClient.frame(opcode: 0x8, payload: [0x03, 0xE8]))
            // The socket finished (freeing the streams) before its answering close frame was flushed.
            #expect(try client.client.readCloseCode() == 1000)
            let socket = try #require(held.withLock { $0 })
            let after = await server.onEveryLoop { context, _ in
                socket.value.eventLoop === context.loop ? socket.value.deflateMemoryUsage.currentBytes : -1
            }
            #expect(after.contains(0))
        }
    }
}
