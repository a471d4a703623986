import Foundation

// Stand-in for main's CourtsideTestSupport until this branch merges it (the same helper as CourtsideNetTests'):
// runs blocking test work on a fresh thread so the cooperative pool is never held by socket reads or waits.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
