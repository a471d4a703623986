import Synchronization

/// What the coordinating thread and the subscriber loops tell each other during a fan-out run, through atomics
/// (no locks on the loops' hot path).
final class FanoutControl: Sendable {
    /// One loop's reports.
    final class LoopProgress: Sendable {
        /// Every subscriber of the loop has connected (or failed).
        let connected = Atomic<Bool>(false)
        /// Every sequence number up to this has been passed by every live subscriber of the loop.
        let passedThrough = Atomic<Int>(-1)
        /// Live subscribers, and how many of them have every message of `finalCount`.
        let live = Atomic<Int>(0)
        let caughtUp = Atomic<Int>(0)
        /// The loop has closed its subscribers and returned its tally.
        let finished = Atomic<Bool>(false)
    }

    let loops: [LoopProgress]
    /// Messages published in all, once publishing has stopped; -1 before.
    let finalCount = Atomic<Int>(-1)
    /// Close every subscriber and end.
    let stop = Atomic<Bool>(false)

    init(loopCount: Int) {
        loops = (0..<loopCount).map { _ in LoopProgress() }
    }

    var allConnected: Bool { loops.allSatisfy { $0.connected.load(ordering: .acquiring) } }

    /// The lowest mark across loops: every live subscriber has passed every sequence number up to it.
    var passedThrough: Int { loops.map { $0.passedThrough.load(ordering: .acquiring) }.min() ?? -1 }

    /// Whether every live subscriber has every published message (valid once `finalCount` is set).
    var allCaughtUp: Bool {
        loops.allSatisfy { $0.caughtUp.load(ordering: .acquiring) >= $0.live.load(ordering: .acquiring) }
    }

    var live: Int { loops.reduce(0) { $0 + $1.live.load(ordering: .acquiring) } }
}
