import CourtsideTestSupport
import Glibc
import Testing

@testable import CourtsideNet

/// The decisions as a trace of events, without sockets.
@Suite("Adaptive flush: the decisions")
struct AdaptiveFlushDecisionTests {
    @Test("nothing waiting: the flush goes on, looking every lookInterval connections")
    func idleFlushesEverything() {
        var flush = AdaptiveFlush(lookInterval: 3)
        flush.flushBegan()
        #expect(flush.steps(3) == [.flushNext, .flushNext, .lookForInput])
        let held = flush.lookedForInput(waiting: false, pending: 1)
        #expect(!held, "nothing waiting: nothing held")
        #expect(flush.steps(1) == [.flushNext])
        flush.flushCompleted()
        #expect(!flush.isHolding)
    }

    @Test("input waiting: the rest is held once; the next flush sends the held first without looking")
    func inputWaitingHoldsOnce() {
        var flush = AdaptiveFlush(lookInterval: 2)
        flush.flushBegan()
        #expect(flush.steps(2) == [.flushNext, .lookForInput])
        var held = flush.lookedForInput(waiting: true, pending: 10)
        #expect(held && flush.isHolding)
        // The next iteration's flush: the ten held go first with no look, so none is held twice in a row.
        flush.flushBegan()
        #expect(flush.steps(10) == Array(repeating: .flushNext, count: 10))
        flush.flushCompleted()
        #expect(!flush.isHolding)
        // Caught up: the flush after that looks again.
        flush.flushBegan()
        #expect(flush.steps(2) == [.flushNext, .lookForInput])
        held = flush.lookedForInput(waiting: true, pending: 1)
        #expect(held)
    }

    @Test("pipelined: after the held connections, the flush looks again and may hold the ones it reaches last")
    func pipelinedHolds() {
        var flush = AdaptiveFlush(lookInterval: 2)
        flush.flushBegan()
        #expect(flush.steps(2) == [.flushNext, .lookForInput])
        var held = flush.lookedForInput(waiting: true, pending: 3)
        #expect(held)
        // Next flush: three held (never followed by a look before all three went), then the connections the first
        // flush reached, looked at every lookInterval connections; input waits again.
        flush.flushBegan()
        #expect(flush.isHolding == false, "what the last flush held is being flushed now")
        #expect(flush.steps(5) == [.flushNext, .flushNext, .flushNext, .flushNext, .lookForInput])
        held = flush.lookedForInput(waiting: true, pending: 2)
        #expect(held && flush.isHolding)
        // And the two it held now go first in the flush after.
        flush.flushBegan()
        #expect(flush.steps(4) == [.flushNext, .flushNext, .flushNext, .lookForInput])
    }

    @Test("the count of connections between looks starts again with each flush")
    func countPerFlush() {
        var flush = AdaptiveFlush(lookInterval: 2)
        flush.flushBegan()
        #expect(flush.steps(1) == [.flushNext])
        flush.flushCompleted()
        flush.flushBegan()
        #expect(flush.steps(1) == [.flushNext], "a small flush per iteration (HTTP traffic) never looks")
    }
}

extension AdaptiveFlush {
    /// The decisions after `count` connections flushed in a row, more waiting after each.
    fileprivate mutating func steps(_ count: Int) -> [Step] {
        (0..<count).map { _ in connectionFlushed() }
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
    @Test("idle: everything queued leaves at the end of the iteration, in order on each connection")
    func idleFlushesAtOnce() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let pairs = [Pair(), Pair(), Pair()]
        defer { for pair in pairs { close(pair.peer) } }
        let held = Held()
        group.loops[0].execute { context in
            // A look after every connection; nothing else reaches the loop until the bytes are read below.
            context.adaptiveFlush = AdaptiveFlush(lookInterval: 1)
            held.connections = pairs.map { Connection(fd: $0.local, remoteAddress: nil, context: context) }
            for connection in held.connections {
                connection.write([9])
                connection.write([1, 1], tag: 7)
            }
        }
        var read: [[UInt8]] = pairs.map { _ in [] }
        _ = eventually(within: .seconds(5), every: .milliseconds(5)) {
            for (index, pair) in pairs.enumerated() { read[index] += pair.peerReads() }
            return read.allSatisfy { $0.count >= 3 }
        }
        #expect(read == [[9, 1, 1], [9, 1, 1], [9, 1, 1]])
        let seen = Collector<Int>()
        group.loops[0].execute { context in
            seen.append(context.heldFlushCount)
            for connection in held.connections { connection.close() }
        }
        #expect(await seen.wait(for: 1) == [0], "nothing was waiting at the looks: nothing held")
    }

    @Test("busy: input waiting behind a flush holds the rest one iteration; then one flush carries both frames")
    func busyHeldOnce() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let input = Pair()
        let pairs = [Pair(), Pair(), Pair()]
        defer { for pair in pairs + [input] { close(pair.peer) } }
        let held = Held()
        let seen = Collector<String>()
        group.loops[0].execute { context in
            context.adaptiveFlush = AdaptiveFlush(lookInterval: 1)
            // A registered connection with bytes waiting: the loop's epoll descriptor is readable.
            let reader = Connection(fd: input.local, remoteAddress: nil, context: context)
            try? reader.activate()
            input.peerWrites([0])
            held.connections = pairs.map { Connection(fd: $0.local, remoteAddress: nil, context: context) } + [reader]
            for connection in held.connections.prefix(3) { connection.write([1, 1], tag: 7) }
            context.loop.execute { context in
                // The first connection was flushed, the look after it found input waiting: the others were held.
                let queued = held.connections.prefix(3).map(\.bufferedBytes)
                seen.append("held \(context.isHoldingFlush), queued \(queued), read \(pairs.map { $0.peerReads() })")
                input.peerWrites([0])
                for connection in held.connections.prefix(3) { connection.write([2, 2], tag: 7) }
                context.loop.execute { context in
                    // Not held twice in a row, though input was waiting again: everything went, in order.
                    seen.append("held \(context.isHoldingFlush), read \(pairs.map { $0.peerReads() })")
                    seen.append("holds \(context.heldFlushCount)")
                    for connection in held.connections { connection.close() }
                }
            }
        }
        let result = await seen.wait(for: 3)
        #expect(
            result == [
                "held true, queued [0, 2, 2], read [[1, 1], [], []]",
                "held false, read [[2, 2], [1, 1, 2, 2], [1, 1, 2, 2]]",
                "holds 1",
            ])
    }
}
