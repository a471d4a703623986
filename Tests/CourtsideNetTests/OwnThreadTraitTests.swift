import CourtsideTestSupport
import Testing

/// The guard on the guard: if `.ownThread` stopped moving test bodies off the cooperative pool, the blocking
/// tests would starve the asynchronous ones again (docs/architecture.md), and these fail first.
@Suite("Tests marked .ownThread run off the cooperative pool", .ownThread)
struct OwnThreadTraitTests {
    @Test("a synchronous body runs on the test's own thread")
    func synchronousBody() {
        #expect(ThreadTaskExecutor.isCurrentThreadOwned)
    }

    @Test("an asynchronous body resumes on the test's own thread after each await")
    func asynchronousBody() async throws {
        #expect(ownThread())
        for _ in 0..<3 {
            try await Task.sleep(for: .milliseconds(1))
            #expect(ownThread())
        }
    }

    @Test("offPool runs a blocking step on a thread of its own")
    func offPoolStep() async throws {
        #expect(try await Task.detached { try await offPool { ownThread() } }.value)
    }

    @Test("a test without the trait runs on the pool, so the check above means something")
    func controlWithoutTrait() async {
        await Task.detached { #expect(!ownThread()) }.value
    }
}

/// A synchronous function, so that it reports where the asynchronous caller was resumed.
private func ownThread() -> Bool { ThreadTaskExecutor.isCurrentThreadOwned }
