import CourtsideNet
import Synchronization

/// A loop did not run a test's task within its deadline.
public struct LoopDidNotAnswer: Error, CustomStringConvertible {
    public let loop: String
    public let limit: Duration
    public var description: String { "\(loop) did not run the task within \(limit)" }
}

/// Runs `body` on `loop` with its context and waits (blocking this test's own thread, at most `limit`) for its
/// answer: how a test plays with what lives on a server's loop (its sockets' `ManualScheduler`, its handlers).
public func onLoop<T: Sendable>(
    _ loop: EventLoop, within limit: Duration = .seconds(10), _ body: @escaping @Sendable (LoopContext) -> T
) throws -> T {
    let answer = Mutex<T?>(nil)
    loop.execute { context in
        let value = body(context)
        answer.withLock { $0 = value }
    }
    var value: T?
    guard
        eventually(
            within: limit, every: .milliseconds(1),
            {
                value = answer.withLock { $0 }
                return value != nil
            }),
        let value
    else { throw LoopDidNotAnswer(loop: "\(loop)", limit: limit) }
    return value
}
