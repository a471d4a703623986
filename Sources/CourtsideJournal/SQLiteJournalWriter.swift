import Dispatch
import Foundation
import Synchronization

/// The queue between the submitters and the writer thread, and the thread's loop: group commit.
///
/// Submitters append to a `Mutex`-protected array and signal a semaphore; they never touch the disk. The writer
/// thread takes everything pending at once, runs it in ONE transaction (each write in its own savepoint), commits
/// (one fsync for the whole group), then calls each completion in submission order. While it commits, new
/// requests pile up and form the next group, so the busier the server, the more writes share each fsync.
final class SQLiteJournalWriter: Sendable {
    enum Request {
        case write(JournalWrite, JournalCompletion)
        case load(@Sendable (Result<JournalContents, JournalError>) -> Void)
        /// Reads the connection's settings (tests and diagnostics), after the writes queued before it.
        case settings(@Sendable (Result<SQLiteJournalSettings, JournalError>) -> Void)
    }

    private struct Queue {
        var requests: [Request] = []
        var isClosed = false
    }

    private let maxWritesPerTransaction: Int
    private let queue = Mutex(Queue())
    /// Signalled once per enqueue: extra signals only cost an empty pass of the loop.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled when the loop has finished and closed the database; used as a latch (each waiter signals it
    /// again for the next).
    private let finished = DispatchSemaphore(value: 0)
    private let transactions = Atomic<Int>(0)
    private let committedWrites = Atomic<Int>(0)
    private let failedWrites = Atomic<Int>(0)
    /// The writer thread's `pthread_t`, 0 until it runs: `close()` called from a completion must not wait for the
    /// thread it runs on.
    private let writerThread = Atomic<UInt>(0)

    init(maxWritesPerTransaction: Int) {
        self.maxWritesPerTransaction = max(1, maxWritesPerTransaction)
    }

    var statistics: JournalStatistics {
        JournalStatistics(
            transactions: transactions.load(ordering: .relaxed),
            committedWrites: committedWrites.load(ordering: .relaxed),
            failedWrites: failedWrites.load(ordering: .relaxed))
    }

    /// Queues `request`; returns false (queuing nothing) when the journal is closed.
    func enqueue(_ request: Request) -> Bool {
        let accepted = queue.withLock { queue in
            guard !queue.isClosed else { return false }
            queue.requests.append(request)
            return true
        }
        if accepted { wake.signal() }
        return accepted
    }

    /// Refuses new requests, lets the loop finish those queued, and waits for it to close the database.
    func close() {
        let first = queue.withLock { queue in
            defer { queue.isClosed = true }
            return !queue.isClosed
        }
        if first { wake.signal() }
        // From a completion (say the journal's last reference dropped there), the loop exits after this batch.
        if pthread_equal(pthread_self(), writerThread.load(ordering: .relaxed)) != 0 { return }
        finished.wait()
        finished.signal()
    }

    /// Marks the writer closed and finished: the database failed to open, so there is no loop to wait for.
    func abandon() {
        queue.withLock { $0.isClosed = true }
        finished.signal()
    }

    /// The writer thread's body: runs until `close()`, then closes `store`.
    func run(_ store: SQLiteJournalStore) {
        writerThread.store(pthread_self(), ordering: .relaxed)
        while true {
            wake.wait()
            let (batch, closing) = queue.withLock { queue in
                defer { queue.requests.removeAll(keepingCapacity: true) }
                return (queue.requests, queue.isClosed)
            }
            var group: [(JournalWrite, JournalCompletion)] = []
            for request in batch {
                switch request {
                case .write(let write, let completion):
                    group.append((write, completion))
                    if group.count == maxWritesPerTransaction {
                        commit(group, to: store)
                        group.removeAll(keepingCapacity: true)
                    }
                case .load(let completion):
                    // Writes queued before the load (or the settings read) are committed first, so it sees them.
                    commit(group, to: store)
                    group.removeAll(keepingCapacity: true)
                    completion(Result { () throws(JournalError) in try store.loadContents() })
                case .settings(let completion):
                    commit(group, to: store)
                    group.removeAll(keepingCapacity: true)
                    completion(Result { () throws(JournalError) in try store.settings() })
                }
            }
            commit(group, to: store)
            // Requests are refused once closed, so a batch taken while closed holds the last of them.
            if closing {
                store.close()
                finished.signal()
                return
            }
        }
    }

    /// Group commit: every write in one transaction, each in its own savepoint, then the completions.
    private func commit(_ group: [(JournalWrite, JournalCompletion)], to store: SQLiteJournalStore) {
        guard !group.isEmpty else { return }
        var results = [Result<Void, JournalError>](repeating: .failure(.closed), count: group.count)
        var inTransaction: [Int] = []
        for (index, (write, _)) in group.enumerated() {
            do throws(JournalError) {
                if !store.isInTransaction {
                    try store.beginTransaction()
                }
                try store.apply(write)
                inTransaction.append(index)
            } catch {
                results[index] = .failure(error)
                if !store.isInTransaction {
                    // SQLite rolled the whole transaction back (I/O error, disk full): the group's earlier writes
                    // are gone too. The following writes start a new transaction.
                    for earlier in inTransaction { results[earlier] = .failure(error) }
                    inTransaction.removeAll()
                }
            }
        }
        if store.isInTransaction {
            do throws(JournalError) {
                try store.commitTransaction()
                for index in inTransaction { results[index] = .success(()) }
                transactions.add(1, ordering: .relaxed)
            } catch {
                store.rollbackTransaction()
                for index in inTransaction { results[index] = .failure(error) }
            }
        }
        // Counted before the completions run, so a caller that saw its completion sees its write counted.
        let committed = results.lazy.filter { if case .success = $0 { return true } else { return false } }.count
        committedWrites.add(committed, ordering: .relaxed)
        failedWrites.add(group.count - committed, ordering: .relaxed)
        for (result, (_, completion)) in zip(results, group) {
            completion(result)
        }
    }
}
