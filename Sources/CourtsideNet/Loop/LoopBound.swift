/// A loop-confined value carried through other threads as an opaque token and used only on its loop: the per-loop
/// subscriber lists of a `BroadcastChannel`, and the application's hand-off of a socket, a responder or a game owner
/// through `EventLoop.execute` and journal completions.
///
/// `@unchecked Sendable` is the documented confinement boundary (like SwiftNIO's `NIOLoopBound`): the value is made
/// on `loop` or published to it through `EventLoop.execute` (its task queue's lock orders the creation before any
/// use), and it is read only through ``value``, which asserts that the caller is on `loop`, so no two threads ever
/// touch it. Inlinable, so the application's uses are specialized as they were when it had its own copy.
public struct LoopBound<Value>: @unchecked Sendable {
    public let loop: EventLoop
    @usableFromInline let stored: Value

    /// Must be made on `loop` (or before anyone else can reach the value).
    @inlinable
    public init(_ value: Value, loop: EventLoop) {
        self.loop = loop
        self.stored = value
    }

    /// The value; only on `loop`'s thread.
    @inlinable
    public var value: Value {
        loop.assertInEventLoop()
        return stored
    }

    /// Runs `body` with the value on its loop: at once when already there, else through `execute` (in order with
    /// every other task submitted from this thread).
    @inlinable
    public func run(_ body: @escaping @Sendable (Value) -> Void) {
        if loop.inEventLoop {
            body(stored)
        } else {
            loop.execute { _ in body(self.value) }
        }
    }
}
