import Foundation

/// A task executor with one thread of its own, for test bodies that block.
///
/// Swift Testing runs every test, synchronous or not, as a task on Swift concurrency's cooperative pool, which has
/// one thread per core (two on the project machine). A test that blocks one of those threads in `recv`, `poll`, a
/// semaphore or a child process's exit takes it from every other test: an asynchronous test waiting for an event
/// loop, a timer or another task is then not resumed, and its deadlines expire although nothing is wrong. A task
/// that prefers this executor (SE-0417, `withTaskExecutorPreference`) runs its synchronous code and resumes after
/// each `await` here instead, keeping its task-locals, so `#expect` still reports to the right test.
///
/// Confinement: `queue`, `exited` and `shuttingDown` are only touched with `condition` locked, which is why the
/// type is `@unchecked Sendable`.
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let name: String
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    private var shuttingDown = false
    /// The thread ended (after `shutdown()`, with nothing queued); a late job starts a new one.
    private var exited = true

    public init(name: String) {
        self.name = name
        condition.lock()
        startThreadLocked()
        condition.unlock()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queue.append(job)
        // A job that arrives after the test body returned (a continuation still resuming) must run, not hang.
        if exited { startThreadLocked() }
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once nothing is queued.
    public func shutdown() {
        condition.lock()
        shuttingDown = true
        condition.signal()
        condition.unlock()
    }

    private func startThreadLocked() {
        exited = false
        Thread { [self] in runJobs() }.start()
    }

    /// Whether the caller runs on the thread of some `ThreadTaskExecutor` (the trait's own test asks).
    public static var isCurrentThreadOwned: Bool { pthread_getspecific(ownedThreadKey) != nil }

    private func runJobs() {
        // Set from the thread itself: on Linux a name given before `start()` is lost and the new thread keeps
        // the name of the one that started it (the name is for debuggers; `isCurrentThreadOwned` is the test).
        Thread.current.name = name
        pthread_setspecific(ownedThreadKey, UnsafeRawPointer(bitPattern: 1))
        while true {
            condition.lock()
            while queue.isEmpty && !shuttingDown { condition.wait() }
            if queue.isEmpty {
                exited = true
                condition.unlock()
                return
            }
            let job = queue.removeFirst()
            condition.unlock()

            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Marks the threads of every `ThreadTaskExecutor`; made once, never deleted.
private let ownedThreadKey: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key, nil)
    precondition(rc == 0, "pthread_key_create failed: \(rc)")
    return key
}()
