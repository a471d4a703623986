import Glibc

/// A counting semaphore for the few places a caller must block until a loop has done something (start-up,
/// shutdown). Never used on a loop thread.
/// `sem_t` is thread-safe by definition, which is why its pointer may be shared.
final class Semaphore: Sendable {
    private let state: UnsafeTransfer<UnsafeMutablePointer<sem_t>>

    init() {
        let pointer = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(pointer, 0, 0)
        state = UnsafeTransfer(pointer)
    }

    deinit {
        sem_destroy(state.value)
        state.value.deallocate()
    }

    func post() {
        sem_post(state.value)
    }

    func wait() {
        while sem_wait(state.value) != 0 && errno == EINTR {}
    }

    /// Waits up to `timeout`; returns false when it ran out.
    func wait(timeout: Duration) -> Bool {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let total = Int64(ts.tv_nsec) + timeout.nanosecondsClamped
        ts.tv_sec += Int(total / 1_000_000_000)
        ts.tv_nsec = Int(total % 1_000_000_000)
        while true {
            if sem_timedwait(state.value, &ts) == 0 { return true }
            if errno != EINTR { return false }
        }
    }
}
