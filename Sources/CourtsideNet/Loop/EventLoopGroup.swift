import CLinux
import Glibc
import Synchronization

/// N event loops, one thread each.
///
/// Work is spread by the kernel (one `SO_REUSEPORT` listener per loop, see `HTTPServer`), so `next()` is only
/// for callers that want to place their own work round-robin.
public final class EventLoopGroup: Sendable {
    /// The loops, in index order.
    public let loops: [EventLoop]
    private let threads: LockedValue<[pthread_t]>
    private let nextIndex = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    /// The number of online processors: the default loop count (one loop per core, no more, because a loop never
    /// blocks and more threads than cores only adds context switches).
    public static var coreCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Starts `threadCount` loops, each on its own thread.
    public init(threadCount: Int = EventLoopGroup.coreCount) throws(NetError) {
        precondition(threadCount > 0, "an EventLoopGroup needs at least one thread")
        var loops: [EventLoop] = []
        for index in 0..<threadCount {
            loops.append(try EventLoop(index: index))
        }
        self.loops = loops
        var started: [pthread_t] = []
        for loop in loops {
            started.append(try Self.startThread(name: "courtside-\(loop.index)") { loop.run() })
        }
        threads = LockedValue(started)
        // Wait until every loop has published its thread id, so `inEventLoop` is meaningful at once.
        for loop in loops {
            let signal = Semaphore()
            loop.execute { _ in signal.post() }
            signal.wait()
        }
    }

    /// The next loop, round-robin.
    public func next() -> EventLoop {
        let index = nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[abs(index % loops.count)]
    }

    /// Stops every loop (closing whatever they still hold) and joins their threads. Must not be called from a loop
    /// thread of this group. Calling it twice does nothing.
    public func shutdown() {
        precondition(!loops.contains { $0.inEventLoop }, "EventLoopGroup.shutdown called on one of its own loops")
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for loop in loops {
            loop.requestStop()
        }
        let toJoin = threads.withLock { $0 }
        for thread in toJoin {
            pthread_join(thread, nil)
        }
    }

    private final class ThreadBody {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private static func startThread(name: String, _ body: @escaping @Sendable () -> Void) throws(NetError) -> pthread_t
    {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, context)
        if rc != 0 {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw NetError.syscall("pthread_create", errno: rc)
        }
        _ = pthread_setname_np(thread, String(name.prefix(15)))
        return thread
    }
}
