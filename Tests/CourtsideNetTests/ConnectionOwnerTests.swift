import CourtsideTestSupport
import Glibc
import Testing

@testable import CourtsideNet

/// Counts the owner's close notifications; outlives the owner, so it can be read after the owner is gone.
private final class CloseCount {
    var value = 0
}

private final class CountingOwner: ConnectionOwner {
    let closes: CloseCount

    init(closes: CloseCount) {
        self.closes = closes
    }

    override func connectionClosed(_ connection: Connection) {
        closes.value += 1
    }
}

/// A connection holds its owner (the server's per-loop registry) strongly, so that the owner has no weak-reference
/// side table and the hot path reaches it cheaply (docs/benchmarks.md, "Latency at a game's rate"); the price is
/// a cycle through the loop's fd table, which `close` must end.
@Suite("Connection owner", .ownThread)
struct ConnectionOwnerTests {
    @Test("a connection keeps its owner while open, tells it once when it closes, and then lets it go")
    func ownerLifetime() throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
            throw NetError.syscall("socketpair", errno: errno)
        }
        let (writer, reader) = (fds[0], fds[1])
        defer { close(reader) }
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let outcome = LockedValue<(heldWhileOpen: Bool, closes: Int, releasedAfterClose: Bool)?>(nil)
        let done = Semaphore()
        group.loops[0].execute { context in
            let connection = Connection(fd: writer, remoteAddress: nil, context: context, writeTimeout: .seconds(5))
            try? connection.activate()
            let closes = CloseCount()
            var owner: CountingOwner? = CountingOwner(closes: closes)
            weak let watched = owner
            connection.owner = owner
            owner = nil
            let heldWhileOpen = watched != nil
            connection.closeNow(context: context)
            outcome.withLock { $0 = (heldWhileOpen, closes.value, watched == nil) }
            done.post()
        }
        #expect(done.wait(timeout: .seconds(10)), "the loop never ran the check")
        let result = outcome.withLock { $0 }
        #expect(result?.heldWhileOpen == true, "the owner went away while its connection was open")
        #expect(result?.closes == 1)
        #expect(result?.releasedAfterClose == true, "the closed connection still holds its owner")
    }
}
