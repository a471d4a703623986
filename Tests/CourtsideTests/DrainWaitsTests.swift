import Testing

@testable import Courtside
@testable import CourtsideNet

/// `DrainWaits`: a socket that fell behind while joining waits, polled, until its queue is down to half its budget,
/// then re-joins once; a closed one's poll is cancelled.
@Suite("Drain waits of subscribing sockets")
struct DrainWaitsTests {
    /// Socket identities that stay distinct for the whole test (a metatype lives as long as the process).
    let sockets = [ObjectIdentifier(Int.self), ObjectIdentifier(String.self), ObjectIdentifier(Double.self)]

    @Test("a socket behind is polled until drained, then re-joins once and no longer waits")
    func waitThenRejoin() {
        var waits = DrainWaits()
        let socket = sockets[0]
        #expect(waits.fellBehind(socket) == [.armPoll])
        waits.pollArmed(socket, timer: TimerID(raw: 7))
        #expect(waits.waiting == 1)
        // Still behind: the armed poll keeps running, nothing new.
        #expect(waits.checked(socket, queue: .behind) == [])
        // The poll fired while still behind: armed again.
        #expect(waits.pollFired(socket, queue: .behind) == [.armPoll])
        waits.pollArmed(socket, timer: TimerID(raw: 8))
        // Drained (the drain callback): the poll is cancelled and it re-joins, once.
        #expect(waits.checked(socket, queue: .drained) == [.cancelPoll(TimerID(raw: 8)), .rejoin])
        #expect(waits.waiting == 0)
        #expect(waits.checked(socket, queue: .drained) == [])
        #expect(waits.pollFired(socket, queue: .drained) == [], "a stale poll does nothing")
    }

    @Test("a poll that finds the queue drained re-joins without a cancel; a closed socket's poll is cancelled")
    func pollAndClose() {
        var waits = DrainWaits()
        let (first, second) = (sockets[0], sockets[1])
        _ = waits.fellBehind(first)
        waits.pollArmed(first, timer: TimerID(raw: 1))
        _ = waits.fellBehind(second)
        waits.pollArmed(second, timer: TimerID(raw: 2))
        #expect(waits.pollFired(first, queue: .drained) == [.rejoin])
        #expect(waits.checked(second, queue: .closed) == [], "a closed socket is left to its close")
        #expect(waits.closed(second) == [.cancelPoll(TimerID(raw: 2))])
        #expect(waits.waiting == 0)
        #expect(waits.closed(second) == [])
        // Unknown sockets are no one's business here.
        #expect(waits.checked(sockets[2], queue: .drained) == [])
    }
}
