import CourtsideNet

/// A loop-confined value carried through other threads as an opaque token and used only on its loop: the hand-off
/// of a socket, a responder or a game owner through `EventLoop.execute` and journal completions.
///
/// `@unchecked Sendable` is the documented confinement boundary (like SwiftNIO's `NIOLoopBound`): the value is read
/// only through ``value``, which asserts that the caller is on `loop`, so no two threads ever touch it.
struct LoopBound<Value>: @unchecked Sendable {
    let loop: EventLoop
    private let stored: Value

    /// Must be made on `loop` (or before anyone else can reach the value).
    init(_ value: Value, loop: EventLoop) {
        self.loop = loop
        self.stored = value
    }

    var value: Value {
        loop.assertInEventLoop()
        return stored
    }

    /// Runs `body` with the value on its loop: at once when already there, else through `execute` (in order with
    /// every other task submitted from this thread).
    func run(_ body: @escaping @Sendable (Value) -> Void) {
        if loop.inEventLoop {
            body(stored)
        } else {
            loop.execute { _ in body(self.value) }
        }
    }
}
