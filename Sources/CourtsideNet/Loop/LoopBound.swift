/// A loop-confined object that a `Sendable` owner holds for one loop: created anywhere, then touched only on
/// `loop`'s thread (checked in debug builds on every access). The confinement boundary of `BroadcastChannel`'s
/// per-loop subscriber lists.
///
/// `@unchecked Sendable`: the value is published to the loop through `EventLoop.execute` (its task queue's lock
/// orders the creation before any use) and every access asserts that it runs on `loop`.
struct LoopBound<Value: AnyObject>: @unchecked Sendable {
    let loop: EventLoop
    private let storage: Value

    init(_ value: Value, loop: EventLoop) {
        self.loop = loop
        self.storage = value
    }

    /// The value; only on `loop`'s thread.
    var value: Value {
        loop.assertInEventLoop()
        return storage
    }
}
