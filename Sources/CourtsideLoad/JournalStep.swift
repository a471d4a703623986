import CourtsideJournal
import CourtsideModel
import Dispatch
import Foundation
import Synchronization

/// One step of `courtside-load journal`: appends at one rate for a fixed time to one journal kind, each append
/// one move of the next game round-robin, and the completion latency of each, measured from the moment the
/// append was due (not when it was submitted), so a submitter that falls behind shows in the latency instead of
/// hiding it (no coordinated omission).
struct JournalStep: Sendable {
    /// The figures of one step.
    struct Result: Sendable, Encodable {
        var kind: JournalOptions.Kind
        var rate: Int
        var submitted: Int
        /// Appends stored (completed with success); latencies and the rate achieved count these only.
        var completed: Int
        /// Appends that completed with an error, or not at all within the drain timeout.
        var failed: Int
        /// From the first due time to the last completion.
        var seconds: Double
        var achievedPerSecond: Double
        var p50Ms: Double
        var p99Ms: Double
        var maxMs: Double
        /// This process's CPU (the SQLite writer, or the Redis client) per append, in microseconds.
        var loadCPUMicrosecondsPerAppend: Double
        /// Redis's own CPU per append (`--redis-pid`), in microseconds.
        var redisCPUMicrosecondsPerAppend: Double?
        var saturated: String?
        var firstFailure: String?
    }

    /// Completions, counted and timed from the journals' threads.
    private final class Tally: Sendable {
        struct State {
            var histogram = LatencyHistogram()
            var failed = 0
            var firstFailure: String?
            var lastCompletion: UInt64 = 0
        }
        let state = Mutex(State())
        let group = DispatchGroup()
    }

    let journals: [any GameJournal]
    let games: [GameID]

    /// Appends `rate` a second for `seconds`; `next` holds each game's next sequence and is advanced.
    func run(
        kind: JournalOptions.Kind, rate: Int, seconds: Double, drainTimeout: Double, redis: ServerProbe?,
        next: inout [Int]
    ) -> Result {
        let tally = Tally()
        let total = Int(Double(rate) * seconds)
        let interval = 1e9 / Double(rate)
        let cpuBefore = ServerProbe.ownCPUSeconds()
        let redisBefore = redis?.cpuSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        var index = 0
        while index < total {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            let due = min(total, Int(elapsed / interval) + 1)
            while index < due {
                let game = index % games.count
                let sequence = next[game]
                next[game] += 1
                let dueAt = start + UInt64(Double(index) * interval)
                tally.group.enter()
                journals[game % journals.count].append(Self.move(sequence), toGame: games[game]) { result in
                    let now = DispatchTime.now().uptimeNanoseconds
                    tally.state.withLock { state in
                        state.lastCompletion = max(state.lastCompletion, now)
                        switch result {
                        case .success: state.histogram.record(now > dueAt ? now - dueAt : 0)
                        case .failure(let error):
                            state.failed += 1
                            if state.firstFailure == nil { state.firstFailure = "\(error)" }
                        }
                    }
                    tally.group.leave()
                }
                index += 1
            }
            // Sleep to the next due time (at least 100 µs, so the loop does not spin at high rates).
            let nextDue = Double(index) * interval
            let now = Double(DispatchTime.now().uptimeNanoseconds - start)
            usleep(UInt32(max(100, min(50_000, (nextDue - now) / 1_000))))
        }
        let drained = tally.group.wait(timeout: .now() + drainTimeout) == .success
        let cpu = ServerProbe.ownCPUSeconds() - cpuBefore
        let redisCPU = redisBefore.flatMap { before in redis?.cpuSeconds().map { $0 - before } }
        let state = tally.state.withLock { $0 }
        let completed = Int(state.histogram.count)
        let span = Double(max(state.lastCompletion, start + 1) - start) / 1e9
        func ms(_ nanoseconds: UInt64) -> Double { (Double(nanoseconds) / 10_000).rounded() / 100 }
        return Result(
            kind: kind, rate: rate, submitted: total, completed: completed,
            failed: total - completed, seconds: (span * 100).rounded() / 100,
            achievedPerSecond: (Double(completed) / span).rounded(), p50Ms: ms(state.histogram.percentile(0.5)),
            p99Ms: ms(state.histogram.percentile(0.99)), maxMs: ms(state.histogram.maximum),
            loadCPUMicrosecondsPerAppend: (cpu / Double(max(1, total)) * 1e7).rounded() / 10,
            redisCPUMicrosecondsPerAppend: redisCPU.map { ($0 / Double(max(1, total)) * 1e7).rounded() / 10 },
            saturated: nil,
            firstFailure: state.firstFailure
                ?? (drained ? nil : "\(total - completed - state.failed) appends not completed in \(drainTimeout) s"))
    }

    /// One move event at `sequence` (its presentation sequence the same), like a scorer's rebound.
    static func move(_ sequence: Int) -> [JournaledEvent] {
        let event = GameEvent(
            sequence: sequence, at: Timestamp(milliseconds: Int64(sequence)),
            commandID: CommandID(rawValue: "load-\(sequence)"),
            kind: .move(player: PlayerID(side: .home, index: 0), move: .rebound))
        return [JournaledEvent(event, presentationSequence: sequence)]
    }
}
