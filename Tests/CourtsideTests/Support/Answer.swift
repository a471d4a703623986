import Dispatch
import Synchronization

/// One asynchronous answer, waited for with a timeout.
final class Answer: Sendable {
    private let value = Mutex<[UInt8]?>(nil)
    private let signal = DispatchSemaphore(value: 0)

    func set(_ bytes: [UInt8]) {
        value.withLock { $0 = bytes }
        signal.signal()
    }

    func wait(seconds: Int = 5) throws -> [UInt8] {
        guard signal.wait(timeout: .now() + .seconds(seconds)) == .success, let bytes = value.withLock({ $0 }) else {
            throw ClientError("no answer within \(seconds) s")
        }
        value.withLock { $0 = nil }
        return bytes
    }

    /// Whether an answer came within `milliseconds` (without consuming it when it did not).
    func arrived(withinMilliseconds milliseconds: Int) -> Bool {
        guard signal.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else { return false }
        signal.signal()
        return true
    }
}
