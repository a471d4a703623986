import Testing

@testable import Courtside

/// `PartitionReachability` as traces: probe outcomes and other nodes' reports in, a `/healthz` verdict out, on a
/// made-up timeline (no Redis, no clock).
@Suite("Partition reachability: whose fault a silent Redis is")
struct PartitionReachabilityTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    /// Partitions answer every 500 ms until `lost` (per partition), as the probe timer would see.
    func probed(_ count: Int, until: Int, lost: [Int: Int] = [:]) -> PartitionReachability {
        var reach = PartitionReachability(count: count, start: start)
        for time in stride(from: 500, through: until, by: 500) {
            for partition in 0..<count {
                let fired = reach.timerFired(partition: partition)
                #expect(fired)
                reach.probeAnswered(partition: partition, success: time < lost[partition, default: .max], at: at(time))
            }
        }
        return reach
    }

    @Test("one Redis: silent for 2 s is this node's problem (as before partitions), and answering again clears it")
    func singleRedis() {
        var reach = probed(1, until: 4_000, lost: [0: 1_600])
        #expect(reach.verdict(at: at(3_400)) == .reachable)
        #expect(reach.verdict(at: at(3_600)) == .cutOff([0: .milliseconds(2_100)]))
        reach.probeAnswered(partition: 0, success: true, at: at(4_100))
        #expect(reach.verdict(at: at(4_100)) == .reachable)
    }

    @Test("a partition down for everyone: other nodes lost it as long ago, so the node stays healthy")
    func downForEveryone() {
        var reach = probed(2, until: 6_000, lost: [1: 1_600])
        // The others' last success on partition 1 was about when this node's was (1.5 s), read from partition 0.
        reach.reportArrived(from: 0, others: [0: .milliseconds(300), 1: .milliseconds(3_700)], at: at(5_200))
        #expect(reach.verdict(at: at(5_500)) == .downForEveryone([1: .milliseconds(4_000)]))
        // A report from a silent partition says nothing: with only that one, the node cannot tell.
        var lone = probed(2, until: 6_000, lost: [1: 1_600])
        lone.reportArrived(from: 1, others: [1: .zero], at: at(1_000))
        #expect(lone.verdict(at: at(5_500)) == .cutOff([1: .milliseconds(4_000)]))
    }

    @Test("cut off from a partition the others reach: unhealthy once 1.5 s behind them, healthy when it answers")
    func cutOffFromOnePartition() {
        var reach = probed(2, until: 4_000, lost: [1: 1_600])
        reach.reportArrived(from: 0, others: [0: .milliseconds(200), 1: .milliseconds(900)], at: at(3_500))
        #expect(reach.verdict(at: at(3_400)) == .reachable)
        // Silent 2.1 s; the others reached it 0.9 s before the report, 0.1 s ago: 1.1 s behind them, under 1.5 s.
        #expect(reach.verdict(at: at(3_600)) == .downForEveryone([1: .milliseconds(2_100)]))
        // The next report: another node reached it 0.3 s ago, while this node has not for 2.5 s.
        reach.reportArrived(from: 0, others: [0: .milliseconds(100), 1: .milliseconds(300)], at: at(4_000))
        #expect(reach.verdict(at: at(4_000)) == .cutOff([1: .milliseconds(2_500)]))
        // The report expires after 3 s: without news the node cannot tell, and stays unhealthy.
        reach.probeAnswered(partition: 0, success: true, at: at(7_000))
        #expect(reach.verdict(at: at(7_100)) == .cutOff([1: .milliseconds(5_600)]))
        reach.probeAnswered(partition: 1, success: true, at: at(7_200))
        #expect(reach.verdict(at: at(7_200)) == .reachable)
    }

    @Test("what the node publishes and whom it asks: its ages per partition, and only the partitions it reaches")
    func agesAndTargets() {
        var reach = probed(2, until: 3_000, lost: [0: 500])
        #expect(reach.ages(at: at(3_200)) == [0: .milliseconds(3_200), 1: .milliseconds(200)])
        #expect(reach.reachable(at: at(3_200)) == [1])
        // One probe at a time per partition.
        let fired = [reach.timerFired(partition: 0), reach.timerFired(partition: 0), reach.timerFired(partition: 1)]
        #expect(fired == [true, false, true])
    }

    @Test("/healthz names a cut-off partition by its index only: no user, host or port")
    func problemNamesIndexOnly() throws {
        let sentence = try #require(
            StoreProbe.problem(.cutOff([1: .milliseconds(2500)]), partitions: 2))
        #expect(sentence == "redis partition 1 has not answered for 2.5 s while other nodes reach it")
        #expect(StoreProbe.problem(.cutOff([0: .seconds(3)]), partitions: 1) == "redis has not answered for 3.0 s")
        #expect(StoreProbe.problem(.downForEveryone([0: .seconds(3)]), partitions: 2) == nil)
        #expect(StoreProbe.problem(.reachable, partitions: 2) == nil)
    }
}
