/// Runs `body` on a thread of its own (see `ThreadTaskExecutor`) and returns what it returns: for a blocking step
/// inside a test that is otherwise free to run on the pool. Suites whose tests block use the `.ownThread` trait.
public func offPool<Result: Sendable>(
    named name: String = "test-blocking-io", _ body: @Sendable () async throws -> Result
) async throws -> Result {
    let executor = ThreadTaskExecutor(name: name)
    defer { executor.shutdown() }
    return try await withTaskExecutorPreference(executor) {
        // The preference moves the task at its next suspension, not before: synchronous code called now would
        // still run on the pool thread. Resuming a continuation enqueues the task on its preferred executor.
        await withCheckedContinuation { $0.resume() }
        return try await body()
    }
}
