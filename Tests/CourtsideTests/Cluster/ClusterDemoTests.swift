import Courtside
import CourtsideTestSupport
import Foundation
import Testing

/// The demo runs on one node of a cluster, by a lease in Redis, and another node takes over when it lapses.
@Suite(
    "Cluster: the demo lease", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterDemoTests {
    @Test("two nodes with --demo: one plays; when it stops, the other takes the lease and plays")
    func oneDemoThenTakeover() throws {
        let redis = try RedisServer()
        let nodeA = try ClusterNode.start("A", on: redis)
        let nodeB = try ClusterNode.start("B", on: redis)
        func supervise(_ node: TestApp) -> DemoSupervisor {
            let application = node.app
            return application.startDemo(lease: .milliseconds(900)) {
                var timing = DemoRunner.Timing()
                timing.moveInterval = 0.05
                return DemoRunner(host: application, timing: timing, logger: Logger(format: .text, level: .error))
            }
        }
        let demoA = supervise(nodeA)
        #expect(eventually(within: .seconds(5)) { demoA.isRunning })
        let demoB = supervise(nodeB)
        defer { demoB.stop() }
        // B keeps trying for three lease periods: A renews, so B never runs it.
        let until = ContinuousClock.now + .milliseconds(2_700)
        while ContinuousClock.now < until {
            #expect(!(demoA.isRunning && demoB.isRunning), "both nodes run the demo")
            usleep(50_000)
        }
        #expect(demoA.isRunning && !demoB.isRunning)
        demoA.stop()
        #expect(eventually(within: .seconds(5)) { demoB.isRunning }, "B did not take over the lapsed lease")
        #expect(!demoA.isRunning)
    }
}
