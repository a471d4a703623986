/// Waits `duration` in a polling loop without depending on any other thread.
///
/// On a test's own thread (`.ownThread`) it sleeps that thread: `Task.sleep` would need a thread of the shared
/// pool to deliver its timer (on Linux Swift concurrency's pool and Dispatch's global queues are the same two
/// threads), and a blocking test elsewhere may hold them both. Anywhere else it is `Task.sleep`.
public func pause(for duration: Duration) async {
    if ThreadTaskExecutor.isCurrentThreadOwned {
        sleepThisThread(for: duration)
    } else {
        try? await Task.sleep(for: duration)
    }
}
