import CourtsideTestSupport
import Foundation
import Glibc
import Testing

@testable import CourtsideNet

/// A fast subscriber read on its own thread: every message with the time it arrived.
private final class Reader: Sendable {
    let received = LockedValue<[(seq: Int, at: ContinuousClock.Instant)]>([])
    let failure = LockedValue<String?>(nil)
}

/// Per-message publish times, shared with the readers.
private final class PublishLog: Sendable {
    let times = LockedValue<[Int: ContinuousClock.Instant]>([:])
}

@Suite("Broadcast backpressure over loopback", .serialized, .ownThread)
struct BroadcastBackpressureTests {
    static let budget = 64 * 1024
    static let messages = 3000
    /// ~1 KiB messages: 3 MB in all, far more than a stalled socket's kernel buffers take.
    static let padding = 800

    static func smallBudget(_ configuration: inout HTTPServer.Configuration) {
        configuration.webSocketSendBudgetBytes = budget
        // The stalled subscriber is silent too: on a machine busy enough to stretch the test past the idle ping and
        // its 20 s answer time it would be closed as dead, which is right, but not what this suite tests.
        configuration.webSocket.idlePingInterval = nil
    }

    /// One scenario for both policies: a subscriber that never reads (tiny SO_RCVBUF) among three that do.
    private struct Outcome {
        var statistics: BroadcastChannel.Statistics
        var resyncs: [String]
        /// What the stalled client received once it read, and how its stream ended.
        var slowSeqs: [Int]
        var slowEnd: String?
        var maxSlowQueued: Int
        var maxTotalQueued: Int
    }

    private func run(policy: BroadcastChannel.SlowConsumerPolicy) async throws -> Outcome? {
        var outcome: Outcome?
        try await withChannelServer(policy: policy, configure: Self.smallBudget) { server in
            let slow = try DeflateTestClient(
                port: server.port, path: "/sub?slow", offer: nil, receiveBufferBytes: 2048, timeout: .seconds(10))
            let log = PublishLog()
            var waiters: [@Sendable (Duration) -> Bool] = []
            var readers: [Reader] = []
            var fastClients: [DeflateTestClient] = []  // kept open until the end
            for index in 0..<3 {
                // Alternate deflate and plain subscribers.
                let client = try DeflateTestClient(
                    port: server.port, path: "/sub?fast\(index)",
                    offer: index == 1 ? nil : "permessage-deflate; client_max_window_bits")
                fastClients.append(client)
                let reader = Reader()
                readers.append(reader)
                let box = UnsafeSendableBox(client)
                waiters.append(
                    onThread {
                        do {
                            for _ in 0..<Self.messages {
                                let message = try box.value.readMessage()
                                guard let seq = patchSequence(message.text),
                                    message.text == patchMessage(seq, padding: Self.padding)
                                else { throw TestClientError.malformed("message") }
                                reader.received.withLock { $0.append((seq, ContinuousClock.now)) }
                            }
                        } catch {
                            reader.failure.withLock { $0 = "\(error)" }
                        }
                    })
            }
            #expect(server.channel.statistics.subscribers == 4)
            var maxSlowQueued = 0
            var maxTotalQueued = 0
            for seq in 0..<Self.messages {
                log.times.withLock { $0[seq] = ContinuousClock.now }
                server.channel.publish(text: patchMessage(seq, padding: Self.padding))
                if seq % 40 == 39 {
                    // Bursts of 40 KB (under the budget), paced by the fast readers: the stalled one sets no pace.
                    let deadline = ContinuousClock.now + .seconds(2)
                    while ContinuousClock.now < deadline,
                        readers.contains(where: { $0.received.withLock { $0.count } < seq + 1 })
                    {
                        await pause(for: .milliseconds(1))
                    }
                }
                if seq % 100 == 99 {
                    let queued = await server.onEveryLoop { _, sockets in
                        sockets.map { ($0.query == "slow" ? $0.bufferedBytes : 0, $0.bufferedBytes) }
                    }
                    maxSlowQueued = max(maxSlowQueued, queued.flatMap { $0 }.map(\.0).max() ?? 0)
                    maxTotalQueued = max(maxTotalQueued, queued.map { $0.map(\.1).reduce(0, +) }.max() ?? 0)
                }
            }
            for waiter in waiters { #expect(waiter(.seconds(20)), "a fast reader finished") }
            for (index, reader) in readers.enumerated() {
                #expect(reader.failure.withLock { $0 } == nil, "fast reader \(index)")
                let received = reader.received.withLock { $0 }
                #expect(received.count == Self.messages, "fast reader \(index) got every message")
                #expect(
                    received.enumerated().allSatisfy { $0.offset == $0.element.seq }, "fast reader \(index) in order")
                // On time: no message waited long behind the stalled subscriber.
                let times = log.times.withLock { $0 }
                let worst = received.map { $0.at - times[$0.seq]! }.max() ?? .zero
                #expect(worst < .seconds(2), "fast reader \(index): worst delay \(worst)")
            }
            let resyncs = await server.resyncs.wait(for: 1, timeout: .milliseconds(200))
            // Now the stalled client reads what it was sent, with a short timeout once it has it all.
            var timeout = timeval(tv_sec: 0, tv_usec: 500_000)
            setsockopt(slow.client.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let (seqs, end) = drain(slow)
            #expect(fastClients.count == 3)
            outcome = Outcome(
                statistics: server.channel.statistics, resyncs: resyncs, slowSeqs: seqs, slowEnd: end,
                maxSlowQueued: maxSlowQueued, maxTotalQueued: maxTotalQueued)
        }
        return outcome
    }

    /// Reads what the stalled client was sent, until a close frame (its text) or a read times out (nil).
    private func drain(_ slow: DeflateTestClient) -> (seqs: [Int], closeCode: String?) {
        var seqs: [Int] = []
        while true {
            do {
                let message = try slow.readMessage()
                guard let seq = patchSequence(message.text) else { break }
                #expect(message.text == patchMessage(seq, padding: Self.padding))
                seqs.append(seq)
            } catch TestClientError.closed(let what) {
                return (seqs, what)
            } catch {
                return (seqs, nil)
            }
        }
        return (seqs, nil)
    }

    @Test(
        "resync policy: a stalled subscriber keeps memory bounded, gets a prefix and the hook; the others stay on time")
    func resyncPolicy() async throws {
        let result = try #require(try await run(policy: .resync))
        #expect(result.maxSlowQueued <= Self.budget, "queued \(result.maxSlowQueued) bytes for the stalled socket")
        #expect(result.maxTotalQueued <= 4 * Self.budget, "server queued \(result.maxTotalQueued) bytes in all")
        #expect(result.resyncs == ["slow"])
        let statistics = result.statistics
        #expect(statistics.slowConsumersResynced == 1)
        #expect(statistics.framesDropped >= 1)
        #expect(statistics.subscribers == 3)
        // The stalled client's stream: an unbroken prefix of what was published, then nothing (it was not re-joined).
        let seqs = result.slowSeqs
        #expect(result.slowEnd == nil, "no close: the socket stays open for the application to re-join")
        #expect(!seqs.isEmpty)
        #expect(seqs.enumerated().allSatisfy { $0.offset == $0.element }, "a prefix, no hole inside it")
        #expect(seqs.count < Self.messages, "the gap the hook reported")
    }

    @Test("close policy: a stalled subscriber is closed with 1013 after a prefix; memory bounded; the others on time")
    func closePolicy() async throws {
        let result = try #require(
            try await run(policy: .close(code: .unknown(1013), reason: "subscriber too slow")))
        #expect(
            result.maxSlowQueued <= Self.budget + 128, "queued \(result.maxSlowQueued) bytes for the stalled socket")
        #expect(result.maxTotalQueued <= 4 * Self.budget + 128)
        let statistics = result.statistics
        #expect(statistics.slowConsumersClosed == 1)
        #expect(statistics.slowConsumersResynced == 0)
        #expect(statistics.subscribers == 3)
        #expect(result.resyncs.isEmpty)
        let seqs = result.slowSeqs
        let close = result.slowEnd
        #expect(seqs.enumerated().allSatisfy { $0.offset == $0.element }, "a prefix, no hole inside it")
        #expect(seqs.count < Self.messages)
        #expect(close == "close frame 1013")
    }

    @Test("send reports sent, then queued once the kernel pushes back, then over budget (and still queues)")
    func sendStatus() async throws {
        try await withChannelServer(configure: Self.smallBudget) { server in
            let stalled = try DeflateTestClient(
                port: server.port, path: "/idle?stalled", offer: nil, receiveBufferBytes: 2048)
            let chunk = String(repeating: "x", count: 16 * 1024)
            var statuses: [WebSocketSendStatus] = []
            for _ in 0..<200 where statuses.last != .overBudget {
                // One send per loop iteration, so the queue is flushed (and the kernel pushes back) in between.
                let results = await server.onEveryLoop { _, sockets in
                    sockets.filter { $0.query == "stalled" }.map { ($0.send(text: chunk), $0.bufferedBytes) }
                }
                let (status, buffered) = try #require(results.flatMap { $0 }.first)
                statuses.append(status)
                if status == .overBudget { #expect(buffered > Self.budget) }
            }
            #expect(statuses.first == .sent)
            #expect(statuses.contains(.queued))
            #expect(statuses.last == .overBudget)
            // Nothing the application sent itself was dropped.
            var received = 0
            for _ in statuses { if try stalled.readMessage().text == chunk { received += 1 } }
            #expect(received == statuses.count)
        }
    }
}

/// Hands a test client to the one thread that reads it.
struct UnsafeSendableBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
