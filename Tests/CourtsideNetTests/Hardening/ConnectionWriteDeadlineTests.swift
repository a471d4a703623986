import CourtsideTestSupport
import Glibc
import Testing

@testable import CourtsideNet

/// Holds the connection under test on its loop.
private final class Held: @unchecked Sendable {
    // Confinement: written and read only on the loop's thread (inside `execute`).
    var connection: Connection?
}

/// The transport's own write deadline on a real socket: an AF_UNIX pair whose reader never reads, so the bytes wait
/// in our queue (TCP's `TCP_USER_TIMEOUT` does not apply: this is the deadline `Connection` keeps itself).
@Suite("Connection write deadline over a socket pair", .ownThread)
struct ConnectionWriteDeadlineTests {
    /// Queues 4 MiB on a connection whose peer never reads (closing it afterwards when asked); returns why and when
    /// it was closed, or nil if it was still open after 3 s.
    static func stall(closing: Bool) throws -> (reason: Connection.AbortReason?, after: Duration)? {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
            throw NetError.syscall("socketpair", errno: errno)
        }
        let (writer, reader) = (fds[0], fds[1])
        defer { close(reader) }
        var size: Int32 = 4096
        setsockopt(writer, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let loop = group.loops[0]
        let held = Held()
        let start = ContinuousClock.now
        loop.execute { context in
            let connection = Connection(
                fd: writer, remoteAddress: nil, context: context, writeTimeout: .milliseconds(200))
            try? connection.activate()
            connection.write([UInt8](repeating: 0x78, count: 4 << 20))
            if closing { connection.closeAfterFlush() }
            held.connection = connection
        }
        // Each poll reads what the loop last reported, then asks it again.
        let seen = LockedValue<(Connection.State, Connection.AbortReason?)?>(nil)
        var outcome: (Connection.AbortReason?, Duration)?
        _ = eventually(within: .seconds(3), every: .milliseconds(10)) {
            if let (current, reason) = seen.withLock({ $0 }), current == .closed {
                outcome = (reason, ContinuousClock.now - start)
                return true
            }
            loop.execute { _ in seen.withLock { $0 = held.connection.map { ($0.state, $0.abortReason) } } }
            return false
        }
        return outcome
    }

    @Test(
        "queued bytes the peer never reads reset the connection after the write timeout, open or closing",
        arguments: [false, true])
    func stalledQueue(closing: Bool) throws {
        let outcome = try Self.stall(closing: closing)
        #expect(outcome?.reason == .writeTimedOut, "still open after 3 s, or closed for another reason")
        if let after = outcome?.after { #expect(after >= .milliseconds(200)) }
    }
}
