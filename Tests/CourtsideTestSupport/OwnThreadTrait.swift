import Testing

/// Runs each test case of a suite (or one test) on a thread of its own instead of the cooperative pool; see
/// `ThreadTaskExecutor` for why. Every suite whose tests block (sockets, child processes, semaphores, `usleep`)
/// carries it: `@Suite("…", .ownThread)`.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite itself is scoped too; only its test cases run code worth moving.
        guard testCase != nil else { return try await function() }
        try await offPool(named: "test \(test.name)") { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// The test's body runs on a thread of its own, so blocking it never starves the cooperative pool.
    public static var ownThread: Self { OwnThreadTrait() }
}
