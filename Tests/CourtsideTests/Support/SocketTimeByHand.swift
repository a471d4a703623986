import Courtside
import CourtsideModel
import CourtsideNet
import CourtsideTestSupport
import Synchronization
import Testing

/// A test server (one loop) whose sockets' timers and time, and the archiver's checks, run on a `ManualScheduler`,
/// and the way to move it: on the server's loop, where the sockets and the lobby live.
final class SocketTimeByHand {
    let app: TestApp
    let scheduler: ManualScheduler
    private let seen: SeenLoop

    /// The loop the sockets were made on (the server has one).
    private final class SeenLoop: Sendable {
        let loop = Mutex<EventLoop?>(nil)
    }

    init(
        dataDirectory: String? = nil, clock: (@Sendable () -> Timestamp)? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        let scheduler = ManualScheduler()
        let seen = SeenLoop()
        self.scheduler = scheduler
        self.seen = seen
        app = try TestApp(
            dataDirectory: dataDirectory, clock: clock,
            socketScheduler: { context in
                seen.loop.withLock { $0 = context.loop }
                return scheduler
            },
            configure: { configuration in
                // The archiver's checks run on the same scheduler: off unless the test turns them on, so the
                // timers a test counts are its sockets'.
                configuration.archiveAfter = .zero
                configure(&configuration)
                configuration.threads = 1
            })
    }

    /// Moves the sockets' time forward by `duration` on the server's loop (their timers due fire there).
    func advance(by duration: Duration) throws {
        // The server has one loop: the one the sockets were made on, or, before any, the one they would be.
        let loop = try #require(seen.loop.withLock { $0 } ?? app.app.loops.first, "the server has no loop")
        let scheduler = self.scheduler
        try onLoop(loop) { _ in scheduler.advance(by: duration) }
    }
}
