import CourtsideTestSupport
import Testing

@testable import CourtsideNet

/// Collects values from loop threads and lets the test thread wait for a count, bounded in time.
final class Collector<T: Sendable>: Sendable {
    private let values = LockedValue<[T]>([])

    func append(_ value: T) {
        values.withLock { $0.append(value) }
    }

    var snapshot: [T] { values.withLock { $0 } }

    /// Waits until `count` values arrived or `timeout` passed; returns what arrived.
    func wait(for count: Int, timeout: Duration = .seconds(5)) async -> [T] {
        _ = eventually(within: timeout, every: .milliseconds(5)) { snapshot.count >= count }
        return snapshot
    }
}

@Suite("Event loop core", .ownThread)
struct EventLoopTests {
    @Test("execute runs tasks on the loop thread in submission order")
    func executeOrder() async throws {
        let group = try EventLoopGroup(threadCount: 2)
        defer { group.shutdown() }
        let loop = group.loops[1]
        let seen = Collector<Int>()
        #expect(!loop.inEventLoop)
        for value in 0..<100 {
            loop.execute { context in
                precondition(context.loop.inEventLoop)
                seen.append(value)
            }
        }
        #expect(await seen.wait(for: 100) == Array(0..<100))
    }

    @Test("timers fire in deadline order and cancelled timers never fire")
    func timerOrderAndCancellation() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let fired = Collector<String>()
        group.loops[0].execute { context in
            context.scheduleTimer(after: .milliseconds(60)) { _ in fired.append("late") }
            let cancelled = context.scheduleTimer(after: .milliseconds(30)) { _ in fired.append("cancelled") }
            context.scheduleTimer(after: .milliseconds(10)) { _ in fired.append("early") }
            context.cancelTimer(cancelled)
            // Due after the cancelled one: timers fire in deadline order, so had it fired it would be listed first.
            context.scheduleTimer(after: .milliseconds(90)) { _ in fired.append("after") }
        }
        let result = await fired.wait(for: 3)
        #expect(result == ["early", "late", "after"])
    }

    @Test("a timer does not fire before its deadline")
    func timerNotEarly() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let elapsed = Collector<Duration>()
        let start = ContinuousClock.now
        group.loops[0].execute { context in
            context.scheduleTimer(after: .milliseconds(50)) { _ in elapsed.append(ContinuousClock.now - start) }
        }
        let result = await elapsed.wait(for: 1)
        #expect(result.count == 1)
        #expect((result.first ?? .zero) >= .milliseconds(50))
    }

    @Test("next() spreads work round-robin over the loops")
    func roundRobin() throws {
        let group = try EventLoopGroup(threadCount: 3)
        defer { group.shutdown() }
        let picked = (0..<6).map { _ in group.next().index }
        #expect(picked == [0, 1, 2, 0, 1, 2])
    }

    @Test("the timer heap skips cancelled entries and stays bounded")
    func timerHeapCompaction() {
        var heap = TimerHeap<Int>()
        let base = ContinuousClock.now
        var ids: [TimerID] = []
        for i in 0..<1000 {
            ids.append(heap.schedule(at: base + .milliseconds(i), i))
        }
        for id in ids.dropLast() { heap.cancel(id) }
        #expect(heap.count == 1)
        #expect(heap.nextDeadline() == base + .milliseconds(999))
        #expect(heap.popDue(now: base + .seconds(5)) == 999)
        #expect(heap.popDue(now: base + .seconds(5)) == nil)
    }

    @Test("the fd table drops events carrying a stale generation")
    func staleGeneration() {
        final class Dummy: EventHandler {
            func handleEvents(_ events: UInt32, context: LoopContext) {}
        }
        var table = FDTable()
        let first = Dummy()
        let oldToken = table.insert(fd: 7, handler: first)
        table.remove(fd: 7)
        let second = Dummy()
        let newToken = table.insert(fd: 7, handler: second)
        #expect(oldToken != newToken)
        #expect(table.handler(for: oldToken) == nil)
        #expect(table.handler(for: newToken) === second)
    }
}
