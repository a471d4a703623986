import CourtsideTestSupport
import Glibc
import Testing

@testable import CourtsideNet

/// The decisions as a trace of events, without sockets.
@Suite("Adaptive flush: the decisions")
struct AdaptiveFlushDecisionTests {
    @Test("an idle loop sends at once, and looks for waiting input every lookInterval sends")
    func idleSendsAtOnce() {
        var offer: AdaptiveFlush.Decision
        var hold: Bool
        var flush = AdaptiveFlush(lookInterval: 3)
        flush.iterationBegan()
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .sendNow)
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .sendNow)
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .sendNowThenLookForInput)
        flush.lookedForInput(waiting: false)
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .sendNow, "nothing waiting: still at once")
        hold = flush.shouldHoldFlush(hasQueued: false)
        #expect(!hold)
    }

    @Test("a frame never jumps a queue: a connection with bytes queued or pushed back gathers")
    func busyConnectionQueues() {
        var offer: AdaptiveFlush.Decision
        var hold: Bool
        var flush = AdaptiveFlush(lookInterval: 2)
        flush.iterationBegan()
        offer = flush.frameOffered(connectionIdle: false)
        #expect(offer == .queue)
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .sendNow, "a queued frame does not count as a send")
        hold = flush.shouldHoldFlush(hasQueued: true)
        #expect(!hold, "queued without input waiting: flushed now")
    }

    @Test("after one pass at once, the rest of the iteration gathers; the next iteration is at once again")
    func secondPassGathers() {
        var offer: AdaptiveFlush.Decision
        var hold: Bool
        var flush = AdaptiveFlush(lookInterval: 8)
        flush.iterationBegan()
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .sendNow)
        flush.fanOutEnded()
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .queue)
        hold = flush.shouldHoldFlush(hasQueued: true)
        #expect(!hold)
        flush.iterationBegan()
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .sendNow)
    }

    @Test("input found waiting: the rest gathers and is held one iteration, never two in a row")
    func inputWaitingHoldsOnce() {
        var offer: AdaptiveFlush.Decision
        var hold: Bool
        var flush = AdaptiveFlush(lookInterval: 1)
        flush.iterationBegan()
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .sendNowThenLookForInput)
        flush.lookedForInput(waiting: true)
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .queue)
        hold = flush.shouldHoldFlush(hasQueued: true)
        #expect(hold)
        #expect(flush.isHolding)
        // The next iteration starts behind: everything gathers, no look, no second hold.
        flush.iterationBegan()
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .queue)
        hold = flush.shouldHoldFlush(hasQueued: true)
        #expect(!hold)
        #expect(!flush.isHolding)
        // Caught up: at once again.
        flush.iterationBegan()
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .sendNowThenLookForInput)
    }

    @Test("nothing queued is never held, even with input waiting")
    func nothingQueuedNotHeld() {
        var offer: AdaptiveFlush.Decision
        var hold: Bool
        var flush = AdaptiveFlush(lookInterval: 1)
        flush.iterationBegan()
        _ = flush.frameOffered(connectionIdle: true)
        flush.lookedForInput(waiting: true)
        hold = flush.shouldHoldFlush(hasQueued: false)
        #expect(!hold)
        flush.iterationBegan()
        offer = flush.frameOffered(connectionIdle: true)
        #expect(offer == .sendNowThenLookForInput)
    }
}

/// A connected pair of stream sockets, both non-blocking.
private struct Pair {
    let local: Int32
    let peer: Int32

    init() {
        var fds: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        local = fds[0]
        peer = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    /// What the peer can read now, without waiting.
    func peerReads() -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(peer, $0.baseAddress, $0.count) }
            if count <= 0 { return result }
            result += chunk[0..<count]
        }
    }

    func peerWrites(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(peer, $0.baseAddress, $0.count) }
    }
}

/// Connections under test, held on their loop.
private final class Held: @unchecked Sendable {
    // Confinement: written and read only on the loop's thread (inside `execute`).
    var connections: [Connection] = []
}

/// The decisions performed by real connections on a loop. Each step is a task that submits the next, so each runs
/// in the loop iteration after the previous one (tasks submitted while tasks run wait for the next iteration).
@Suite("Adaptive flush on a loop", .ownThread)
struct AdaptiveFlushLoopTests {
    @Test("idle: a frame goes out at once; a second pass gathers behind it; a frame never jumps a queue")
    func idleThenGathered() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let pairs = [Pair(), Pair()]
        defer { for pair in pairs { close(pair.peer) } }
        let held = Held()
        let seen = Collector<String>()
        group.loops[0].execute { context in
            held.connections = pairs.map { Connection(fd: $0.local, remoteAddress: nil, context: context) }
            let (first, second) = (held.connections[0], held.connections[1])
            first.writeBroadcast([1, 1], tag: 7)
            seen.append("at once: queued \(first.bufferedBytes), peer read \(pairs[0].peerReads())")
            context.adaptiveFlush.fanOutEnded()
            first.writeBroadcast([2, 2], tag: 7)
            first.writeBroadcast([3, 3], tag: 7)
            seen.append("second pass: queued \(first.bufferedBytes), peer read \(pairs[0].peerReads())")
            // The application's own answer is queued first: the frame waits behind it.
            second.write([9])
            second.writeBroadcast([1, 1], tag: 7)
            context.loop.execute { _ in
                seen.append(
                    "next iteration: peer read \(pairs[0].peerReads()), queued \(held.connections[0].bufferedBytes)")
                seen.append("behind an answer: peer read \(pairs[1].peerReads())")
                for connection in held.connections { connection.close() }
            }
        }
        let result = await seen.wait(for: 4)
        #expect(
            result == [
                "at once: queued 0, peer read [1, 1]",
                "second pass: queued 4, peer read []",
                "next iteration: peer read [2, 2, 3, 3], queued 0",
                "behind an answer: peer read [9, 1, 1]",
            ])
    }

    @Test("busy: input waiting gathers the rest, holds it one iteration, then one flush carries both frames")
    func busyHeldOnce() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let input = Pair()
        let pairs = [Pair(), Pair(), Pair()]
        defer { for pair in pairs + [input] { close(pair.peer) } }
        let held = Held()
        let seen = Collector<String>()
        group.loops[0].execute { context in
            context.adaptiveFlush = AdaptiveFlush(lookInterval: 2)
            // A registered connection with bytes waiting: the loop's epoll descriptor is readable.
            let reader = Connection(fd: input.local, remoteAddress: nil, context: context)
            try? reader.activate()
            input.peerWrites([0])
            held.connections = pairs.map { Connection(fd: $0.local, remoteAddress: nil, context: context) } + [reader]
            for connection in held.connections.prefix(3) { connection.writeBroadcast([1, 1], tag: 7) }
            seen.append("queued \(held.connections.prefix(3).map(\.bufferedBytes))")
            context.loop.execute { context in
                let third = held.connections[2]
                seen.append(
                    "held \(context.isHoldingFlush), third queued \(third.bufferedBytes) read \(pairs[2].peerReads())")
                input.peerWrites([0])
                for connection in held.connections.prefix(3) { connection.writeBroadcast([2, 2], tag: 7) }
                seen.append("behind: queued \(held.connections.prefix(3).map(\.bufferedBytes))")
                context.loop.execute { context in
                    seen.append("held \(context.isHoldingFlush), read \(pairs.map { $0.peerReads() })")
                    for connection in held.connections { connection.close() }
                }
            }
        }
        let result = await seen.wait(for: 4)
        #expect(
            result == [
                // Two sent at once; the look after the second found input waiting: the third is queued.
                "queued [0, 0, 2]",
                "held true, third queued 2 read []",
                // The iteration after a hold gathers everything, idle connections too.
                "behind: queued [2, 2, 4]",
                // Not held twice: flushed, in order.
                "held false, read [[1, 1, 2, 2], [1, 1, 2, 2], [1, 1, 2, 2]]",
            ])
    }
}
