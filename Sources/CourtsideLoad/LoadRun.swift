import Foundation
import Glibc
import Synchronization

/// What one loop measured; merged across threads into a ``LoadReport``.
struct LoadThreadResult: Sendable {
    var histogram = LatencyHistogram()
    /// Clients whose handshake completed.
    var upgraded = 0
    var completed = 0
    var cleanCloses = 0
    var sentMessages = 0
    var failures = FailureCounts()
    var connectNanoseconds: UInt64 = 0
    var sendingStarted: UInt64 = 0
    var lastEcho: UInt64 = 0

    mutating func record(_ outcome: LoadClientOutcome, count: Int) {
        switch outcome {
        case .completed(let clean):
            completed += count
            if clean { cleanCloses += count }
        case .failed(let failure):
            failures.record(failure, count: count)
        }
    }
}

/// A start line for the loops: each arrives when its clients are connected and leaves when all have arrived
/// or `deadline` (monotonic nanoseconds) has passed, so a stuck thread cannot hold the run forever.
final class LoadBarrier: Sendable {
    private let parties: Int
    private let arrived = Atomic<Int>(0)

    init(parties: Int) {
        self.parties = parties
    }

    func arriveAndWait(until deadline: UInt64) {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < parties && LoadSocket.now() < deadline {
            usleep(200)
        }
    }
}

/// Runs the load on `options.threads` loops (the first on the calling thread) and merges what they measured.
enum LoadRun {
    static func run(_ options: LoadOptions) -> [LoadThreadResult] {
        signal(SIGPIPE, SIG_IGN)
        LoadSocket.raiseFileLimit(to: options.clients + 64)
        let threads = options.threads
        let barrier = LoadBarrier(parties: threads)
        let results = Mutex<[LoadThreadResult]>([])
        let done = DispatchSemaphore(value: 0)
        var first = 0
        var shares: [(first: Int, count: Int)] = []
        for thread in 0..<threads {
            let count = options.clients / threads + (thread < options.clients % threads ? 1 : 0)
            shares.append((first, count))
            first += count
        }
        for share in shares.dropFirst() {
            let thread = Thread {
                let loop = LoadLoop(
                    options: options, clientCount: share.count, firstClient: share.first, barrier: barrier)
                let result = loop.run()
                results.withLock { $0.append(result) }
                done.signal()
            }
            thread.name = "courtside-load"
            thread.start()
        }
        let loop = LoadLoop(options: options, clientCount: shares[0].count, firstClient: 0, barrier: barrier)
        let result = loop.run()
        for _ in shares.dropFirst() { done.wait() }
        return results.withLock { $0 } + [result]
    }
}
