import CourtsideNet
import CourtsideTestSupport
import Foundation
import Testing

@Suite("Broadcast channel over loopback", .serialized, .ownThread)
struct BroadcastChannelTests {
    @Test("a publish reaches plain and deflate subscribers on every loop, in order, encoded once")
    func fanOut() async throws {
        try await withChannelServer { server in
            // At least six subscribers, alternating plain and deflate, and more until every loop has some (the
            // kernel's SO_REUSEPORT hash decides where each lands).
            var clients: [DeflateTestClient] = []
            var loops: [Int] = []
            while clients.count < 6 || (loops.contains(0) && clients.count < 40) {
                let index = clients.count
                clients.append(
                    try DeflateTestClient(
                        port: server.port, path: "/sub?id=\(index)",
                        offer: index % 2 == 0 ? "permessage-deflate; client_max_window_bits" : nil))
                loops = await server.onEveryLoop { _, sockets in sockets.count }
            }
            #expect(clients.enumerated().allSatisfy { ($0.element.extensionResponse != nil) == ($0.offset % 2 == 0) })
            #expect(loops.allSatisfy { $0 > 0 }, "subscribers on every loop: \(loops)")
            #expect(server.channel.statistics.subscribers == clients.count)

            for seq in 0..<100 { server.channel.publish(text: patchMessage(seq)) }
            for (index, client) in clients.enumerated() {
                for seq in 0..<100 {
                    let message = try client.readMessage()
                    #expect(message.text == patchMessage(seq), "client \(index), message \(seq)")
                }
                if index % 2 == 0 {
                    #expect(client.compressedCount > 80, "deflate subscribers follow the shared stream")
                } else {
                    #expect(client.compressedCount == 0)
                }
            }
            let statistics = server.channel.statistics
            #expect(statistics.messagesPublished == 100)
            #expect(statistics.framesQueued == 100 * clients.count)
            #expect(statistics.compressedFramesQueued == clients.reduce(0) { $0 + $1.compressedCount })
            #expect(statistics.framesDropped == 0)
        }
    }

    @Test("ordering: a subscribe submitted by the publishing loop between two publishes splits them exactly")
    func orderingGuarantee() async throws {
        try await withChannelServer { server in
            // Idle sockets until there is one on each loop.
            var clients: [String: DeflateTestClient] = [:]
            var byLoop: [Int: String] = [:]
            for index in 0..<64 where byLoop.count < 2 {
                let id = "id=\(index)"
                let client = try DeflateTestClient(port: server.port, path: "/idle?\(id)")
                clients[id] = client
                let found = await server.onEveryLoop { context, sockets in
                    sockets.contains { $0.query == id } ? context.loop.index : -1
                }
                if let loop = found.first(where: { $0 >= 0 }), byLoop[loop] == nil { byLoop[loop] = id }
            }
            let local = try #require(byLoop[0])
            let remote = try #require(byLoop[1])
            let channel = server.channel
            let loops = server.server.group.loops
            let synchronous = Collector<Bool>()
            for round in 0..<3 {
                let split = 40 + round * 30
                loops[0].execute { context in
                    // The publisher is loop 0; its own socket is joined directly, the other through loop 1.
                    for seq in 0..<150 {
                        if seq == split {
                            if let socket = server.socket(query: local, on: context) { channel.subscribe(socket) }
                            loops[1].execute { context in
                                if let socket = server.socket(query: remote, on: context) { channel.subscribe(socket) }
                            }
                        }
                        channel.publish(text: patchMessage(round * 1000 + seq))
                        if seq == split, let socket = server.socket(query: local, on: context) {
                            // Delivered inside `publish` on the publisher's own loop.
                            synchronous.append(socket.bufferedBytes > 0)
                        }
                    }
                    // Leave again, the same way, for the next round.
                    if let socket = server.socket(query: local, on: context) { channel.unsubscribe(socket) }
                    loops[1].execute { context in
                        if let socket = server.socket(query: remote, on: context) { channel.unsubscribe(socket) }
                    }
                }
                for id in [local, remote] {
                    let client = try #require(clients[id])
                    for seq in split..<150 {
                        #expect(
                            try client.readMessage().text == patchMessage(round * 1000 + seq), "\(id) round \(round)")
                    }
                }
            }
            #expect(await synchronous.wait(for: 3) == [true, true, true])
            // Nothing else arrived: the next frame is the answer to a ping we send now.
            for id in [local, remote] {
                let client = try #require(clients[id])
                try client.client.send(TestClient.frame(opcode: 0x9, payload: [7]))
                let (_, frame) = try client.readFrame()
                #expect(frame.opcode == 0xA, "\(id): only the pong is left, no stray broadcast frame")
            }
        }
    }

    @Test("deflate subscribers that join and resync midway decode every message exactly with a raw zlib inflater")
    func joinAndResync() async throws {
        try await withChannelServer(resubscribeOnResync: true) { server in
            let first = try DeflateTestClient(port: server.port, path: "/sub?first")
            let resyncing = try DeflateTestClient(port: server.port, path: "/sub?resyncing")
            let narrow = try DeflateTestClient(
                port: server.port, path: "/sub?narrow",
                offer: "permessage-deflate; server_max_window_bits=10; client_max_window_bits")
            #expect(narrow.extensionResponse?.contains("server_max_window_bits=10") == true)
            for seq in 0..<120 { server.channel.publish(text: patchMessage(seq)) }
            let joiner = try DeflateTestClient(port: server.port, path: "/sub?joiner")
            for seq in 120..<240 { server.channel.publish(text: patchMessage(seq)) }
            _ = await server.onEveryLoop { context, sockets in
                for socket in sockets where socket.query == "resyncing" { server.channel.resync(socket) }
                return 0
            }
            #expect(await server.resyncs.wait(for: 1) == ["resyncing"])
            for seq in 240..<400 { server.channel.publish(text: patchMessage(seq)) }

            // `start` nil: wherever the stream began for this client (a resync on a busy machine may come before
            // any frame went out, and then drops all of them).
            func check(_ client: DeflateTestClient, from start: Int?, _ name: String) throws -> [Int] {
                var seqs: [Int] = []
                while seqs.last != 399 {
                    let message = try client.readMessage()
                    let seq = try #require(patchSequence(message.text))
                    #expect(message.text == patchMessage(seq), "\(name) decodes \(seq) exactly")
                    seqs.append(seq)
                }
                if let start { #expect(seqs.first == start, "\(name)") }
                return seqs
            }
            #expect(try check(first, from: 0, "first") == Array(0..<400))
            #expect(try check(narrow, from: 0, "narrow") == Array(0..<400))
            #expect(try check(joiner, from: 120, "joiner") == Array(120..<400))
            // A resync may drop frames that had not started going out: a gap, then everything from the re-join.
            let seqs = try check(resyncing, from: nil, "resyncing")
            #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
            #expect(Set(240..<400).isSubset(of: Set(seqs)))
            #expect(joiner.compressedCount > 100, "the joiner reached the shared stream at a sync point")
            // How many frames the resync dropped depends on timing; what must hold is that it waited at most one
            // sync interval (16 messages) after each join, then took the shared stream again.
            #expect(resyncing.compressedCount >= seqs.count - 40, "the resynced subscriber rejoined the shared stream")
            #expect(narrow.compressedCount > 300)
            #expect(server.channel.statistics.slowConsumersResynced == 1)
        }
    }

    @Test("a message published as prebuilt bytes reaches plain and deflate subscribers exactly, in order with text")
    func publishPrebuiltBytes() async throws {
        try await withChannelServer { server in
            let clients = try (0..<4).map { index in
                try DeflateTestClient(
                    port: server.port, path: "/sub?id=\(index)",
                    offer: index % 2 == 0 ? "permessage-deflate; client_max_window_bits" : nil)
            }
            #expect(server.channel.statistics.subscribers == clients.count)
            // Alternating both publish APIs: one shared stream, one order, whichever way a message came in.
            for seq in 0..<60 {
                if seq % 2 == 0 {
                    server.channel.publish(try BroadcastPayload(text: Array(patchMessage(seq).utf8)))
                } else {
                    server.channel.publish(text: patchMessage(seq))
                }
            }
            server.channel.publish(BroadcastPayload(binary: [0, 1, 2, 255]))
            for (index, client) in clients.enumerated() {
                for seq in 0..<60 {
                    #expect(try client.readMessage().text == patchMessage(seq), "client \(index), message \(seq)")
                }
                // Under the 8 bytes worth compressing: plain for everyone.
                let (rsv1, binary) = try client.readFrame()
                #expect(!rsv1 && binary.opcode == 0x2 && binary.payload == [0, 1, 2, 255])
                if index % 2 == 0 {
                    #expect(client.compressedCount > 40, "deflate subscribers follow the shared stream")
                } else {
                    #expect(client.compressedCount == 0)
                }
            }
            #expect(server.channel.statistics.framesQueued == 61 * clients.count)
        }
    }

    @Test("unsubscribing and closing remove a subscriber; nothing published afterwards reaches it")
    func unsubscribeAndClose() async throws {
        try await withChannelServer { server in
            let leaving = try DeflateTestClient(port: server.port, path: "/sub?leaving")
            let closing = try DeflateTestClient(port: server.port, path: "/sub?closing")
            let staying = try DeflateTestClient(port: server.port, path: "/sub?staying")
            #expect(server.channel.statistics.subscribers == 3)
            _ = await server.onEveryLoop { _, sockets in
                for socket in sockets where socket.query == "leaving" {
                    #expect(server.channel.isSubscribed(socket))
                    server.channel.unsubscribe(socket)
                    #expect(!server.channel.isSubscribed(socket))
                }
                return 0
            }
            try closing.client.send(TestClient.frame(opcode: 0x8, payload: [0x03, 0xE8]))
            #expect(try closing.client.readCloseCode() == 1000)
            _ = eventually(within: .seconds(1), every: .milliseconds(5)) { server.channel.statistics.subscribers == 1 }
            #expect(server.channel.statistics.subscribers == 1)
            server.channel.publish(text: "after")
            #expect(try staying.readMessage().text == "after")
            try leaving.client.send(TestClient.frame(opcode: 0x9, payload: []))
            #expect(try leaving.readFrame().frame.opcode == 0xA, "the pong, and no broadcast frame before it")
            #expect(server.channel.statistics.framesQueued == 1)
        }
    }
}
