import CourtsideTestSupport
import Foundation
import Testing

@testable import CourtsideNet

/// Broadcast frames over TLS: each frame is encoded once and shared, then encrypted per connection into the
/// connection's reused output buffer. These check what that path must keep: every subscriber gets exactly the
/// published bytes in order, whether a flush holds one frame, a run of small ones (joined into one record) or
/// one larger than a record, and while the socket pushes back with ciphertext still queued.
@Suite("Broadcast over TLS", .serialized, .ownThread)
struct TLSBroadcastTests {
    /// Large enough that nothing published here is dropped: these tests check bytes, not the slow-consumer policy.
    static let budget = 16 * 1024 * 1024

    static func secure(_ context: TLSContext) -> (inout HTTPServer.Configuration) -> Void {
        { configuration in
            configuration.tls = context
            configuration.webSocketSendBudgetBytes = budget
            // A subscriber that does not read for a while must not be closed as dead by the idle ping.
            configuration.webSocket.idlePingInterval = nil
        }
    }

    /// Waits until the channel counts `count` subscribers (subscribing on open is asynchronous).
    private func waitForSubscribers(_ server: ChannelTestServer, _ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while server.channel.statistics.subscribers < count {
            guard ContinuousClock.now < deadline else { throw TestClientError.timedOut("\(count) subscribers") }
            await pause(for: .milliseconds(2))
        }
    }

    @Test("one published frame reaches every TLS subscriber exactly and in order: alone, joined, or over a record")
    func sharedFrames() async throws {
        let certificate = try TestCertificate()
        defer { certificate.directory.remove() }
        let context = try certificate.serverContext()
        // Every 25th message is larger than a TLS record (2^14 bytes), the others are joined when they queue
        // together in one loop iteration.
        let messages = (0..<200).map { patchMessage($0, padding: $0 % 25 == 24 ? 40_000 : 0) }
        try await withChannelServer(configure: Self.secure(context)) { server in
            var waiters: [@Sendable (Duration) -> Bool] = []
            var readers: [Reader] = []
            var clients: [DeflateTestClient] = []  // kept open until the end
            for index in 0..<6 {
                let client = try DeflateTestClient(
                    port: server.port, path: "/sub?s\(index)",
                    offer: index % 3 == 2 ? "permessage-deflate; client_max_window_bits" : nil,
                    tls: TLSContext.client(verify: false))
                clients.append(client)
                let reader = Reader()
                readers.append(reader)
                let box = UnsafeSendableBox(client)
                waiters.append(onThread { reader.read(messages.count, from: box.value) })
            }
            try await waitForSubscribers(server, clients.count)
            for message in messages { server.channel.publish(text: message) }
            for waiter in waiters { #expect(waiter(.seconds(30)), "a reader finished") }
            for (index, reader) in readers.enumerated() {
                #expect(reader.failure.withLock { $0 } == nil, "reader \(index)")
                #expect(reader.texts.withLock { $0 } == messages, "reader \(index) got every message exactly, in order")
            }
            #expect(server.channel.statistics.framesDropped == 0)
        }
    }

    @Test("a TLS subscriber that stops reading gets every frame whole and in order once it reads again")
    func underBackpressure() async throws {
        let certificate = try TestCertificate()
        defer { certificate.directory.remove() }
        let context = try certificate.serverContext()
        try await withChannelServer(threads: 1, configure: Self.secure(context)) { server in
            // A small receive window, so the server's socket pushes back with ciphertext queued.
            let slow = try DeflateTestClient(
                port: server.port, path: "/sub?slow", offer: nil, receiveBufferBytes: 2048, timeout: .seconds(10),
                tls: TLSContext.client(verify: false))
            try await waitForSubscribers(server, 1)
            // Two small messages for each one near a record's size: runs joined into one record, and lone chunks.
            func message(_ seq: Int) -> String { patchMessage(seq, padding: seq % 3 == 0 ? 16_000 : 300) }
            var published = 0
            var blockedAt: Int?
            // Bounded: at most 600 messages (~3.4 MB); keeps publishing a little after the kernel pushed back, so
            // frames are encrypted while earlier records still wait in the queue.
            while published < 600, blockedAt.map({ published < $0 + 30 }) ?? true {
                for _ in 0..<10 {
                    server.channel.publish(text: message(published))
                    published += 1
                }
                if blockedAt == nil {
                    let states = await server.onEveryLoop { _, sockets in
                        sockets.filter { $0.query == "slow" }.map {
                            ($0.connection.isWriteBlocked, $0.bufferedBytes)
                        }
                    }
                    if let state = states.flatMap({ $0 }).first, state.0, state.1 > 0 { blockedAt = published }
                }
            }
            #expect(blockedAt != nil, "the socket pushed back within \(published) messages")
            for seq in 0..<published {
                let received = try slow.readMessage()
                guard received.text == message(seq) else {
                    Issue.record("message \(seq) differs: \(received.text.prefix(80))…")
                    return
                }
            }
            #expect(server.channel.statistics.framesDropped == 0)
        }
    }
}

/// One subscriber read on its own thread: the texts in arrival order, or what went wrong.
private final class Reader: Sendable {
    let texts = LockedValue<[String]>([])
    let failure = LockedValue<String?>(nil)

    func read(_ count: Int, from client: DeflateTestClient) {
        do {
            for _ in 0..<count {
                let text = try client.readMessage().text
                texts.withLock { $0.append(text) }
            }
        } catch {
            failure.withLock { $0 = "\(error)" }
        }
    }
}
