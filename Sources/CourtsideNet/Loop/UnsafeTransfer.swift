/// Moves a non-Sendable value across the one confinement boundary that needs it: the task queue of an
/// `EventLoop`. A task is enqueued by any thread and run exactly once on the loop thread, so the value is
/// never touched by two threads at once. Callers keep full checking: `execute` takes `@Sendable`
/// closures, and `executeSending` takes a `sending` closure the caller can no longer use.
struct UnsafeTransfer<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
