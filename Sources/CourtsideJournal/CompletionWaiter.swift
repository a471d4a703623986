import Dispatch
import Synchronization

/// Turns one asynchronous completion into a blocking wait, for the journals' synchronous API.
final class CompletionWaiter<Success: Sendable>: Sendable {
    private let result = Mutex<Result<Success, JournalError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func complete(_ value: Result<Success, JournalError>) {
        result.withLock { $0 = value }
        done.signal()
    }

    /// Blocks until `complete` was called, then returns its value.
    func wait() -> Result<Success, JournalError> {
        done.wait()
        guard let value = result.withLock({ $0 }) else {
            preconditionFailure("Invalid state: signalled without a result")
        }
        return value
    }
}
