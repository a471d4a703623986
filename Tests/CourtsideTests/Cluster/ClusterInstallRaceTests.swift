import CourtsideModel
import CourtsideTestSupport
import Foundation
import Synchronization
import Testing

@testable import Courtside
@testable import CourtsideNet

/// A game another node created is installed on this node while its spectators already arrive (the cluster test's
/// `race/history`: a spectator upgraded on the game's own loop and then got nothing).
@Suite(
    "Cluster: joining a game while it is installed", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterInstallRaceTests {
    @Test("work for a game whose handle is published but whose install still waits in its loop's queue is served")
    func joinWhileInstalling() throws {
        let redis = try RedisServer()
        let node = try ClusterNode.start("C", on: redis)
        let core = node.app.core
        let served = Mutex<[String: Int]>([:])
        let loops = core.services.group.loops
        // Games go to the loops in turn: one install per loop puts one game on the loop that installs it. The
        // install is queued on that loop and the handle published at once (as `SharedFeedRouter` does); a joiner
        // on the same loop finds the handle before the owner is in place.
        for (index, loop) in loops.enumerated() {
            loop.execute { context in
                for attempt in 0..<loops.count {
                    let id = GameID(rawValue: "race-\(index)-\(attempt)")
                    let game = Game(setup: try! DemoTeams().setup(id: id))
                    let handle = core.install(
                        game: game, seq: 0, now: Timestamp(milliseconds: 0), restored: true, digest: [],
                        isArchived: false)
                    guard handle.loop === context.loop else { continue }
                    handle.withOwner(from: context) { owner in
                        served.withLock { $0[id.rawValue] = owner.seq }
                    }
                    return
                }
                Issue.record("no game was placed on loop \(index)")
            }
        }
        #expect(
            eventually(within: .seconds(5)) { served.withLock { $0.count } == loops.count }, "\(served.withLock { $0 })"
        )
        #expect(served.withLock { Array($0.values) } == Array(repeating: 0, count: loops.count))
    }
}
