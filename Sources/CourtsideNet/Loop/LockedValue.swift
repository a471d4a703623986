import Glibc

/// A value guarded by a pthread mutex: the lock at the loops' one cross-thread boundary (the task queue) and in the
/// few start-up/shutdown paths.
///
/// Why not `Synchronization.Mutex`: on Linux it is built on raw futex system calls that ThreadSanitizer does not
/// intercept, so `swift test --sanitize=thread` reports every access it guards as a race and the sanitizer run loses
/// its value. A pthread mutex is intercepted. `@unchecked Sendable`: every access to `value` holds the mutex.
final class LockedValue<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
