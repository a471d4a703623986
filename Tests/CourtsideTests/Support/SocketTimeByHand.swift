import Courtside
import CourtsideNet
import CourtsideTestSupport
import Synchronization
import Testing

/// A test server (one loop) whose sockets' timers and time run on a `ManualScheduler`, and the way to move it: on
/// the server's loop, where the sockets live.
final class SocketTimeByHand {
    let app: TestApp
    let scheduler: ManualScheduler
    private let seen: SeenLoop

    /// The loop the sockets were made on (the server has one).
    private final class SeenLoop: Sendable {
        let loop = Mutex<EventLoop?>(nil)
    }

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        let scheduler = ManualScheduler()
        let seen = SeenLoop()
        self.scheduler = scheduler
        self.seen = seen
        app = try TestApp(
            socketScheduler: { context in
                seen.loop.withLock { $0 = context.loop }
                return scheduler
            },
            configure: { configuration in
                configure(&configuration)
                configuration.threads = 1
            })
    }

    /// Moves the sockets' time forward by `duration` on the server's loop (their timers due fire there).
    func advance(by duration: Duration) throws {
        let loop = try #require(seen.loop.withLock { $0 }, "no socket was made yet")
        let scheduler = self.scheduler
        try onLoop(loop) { _ in scheduler.advance(by: duration) }
    }
}
