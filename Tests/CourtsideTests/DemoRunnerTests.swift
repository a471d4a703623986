import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Synchronization
import Testing

@testable import Courtside

/// A server stand-in: one model game per creation, commands decoded and applied as the real route does.
final class FakeDemoHost: DemoHost {
    struct State {
        var games: [GameID: Game] = [:]
        var created: [GameID] = []
        var commands: [String] = []
        var refuseAll = false
        /// Replies handed to the runner (each command's, once answered).
        var answered = 0
    }

    let state = Mutex(State())
    /// Replies come on a queue of the host's own, as the server's come from its loops: never on Dispatch's global
    /// queues, which on Linux are the two threads of Swift concurrency's pool.
    private let replies = DispatchQueue(label: "fake-demo-host.replies")

    func createDemoGame(_ teams: DemoTeams, completion: @escaping @Sendable (Result<DemoGame, any Error>) -> Void) {
        let created = state.withLock { state in
            let id = GameID(rawValue: "g\(state.created.count + 1)")
            state.games[id] = Game(setup: try! teams.setup(id: id))
            state.created.append(id)
            return DemoGame(id: id, spectatorLink: "/games/\(id.rawValue)")
        }
        completion(.success(created))
    }

    func submitDemoCommand(_ command: [UInt8], to game: GameID, completion: @escaping @Sendable ([UInt8]) -> Void) {
        let reply: CommandReply = state.withLock { state in
            state.commands.append(String(decoding: command, as: UTF8.self))
            switch CommandDecoder().decode(command) {
            case .failure(let rejection):
                return rejection.reply
            case .success(let decoded):
                if state.refuseAll { return .rejected(id: decoded.id, failure: CommandFailure(.badCommand, "refused")) }
                do throws(GameError) {
                    _ = try state.games[game]!.apply(decoded, at: Timestamp(milliseconds: 0))
                    return .accepted(id: decoded.id, seq: state.games[game]!.events.count)
                } catch {
                    return .rejected(id: decoded.id, failure: CommandFailure(error))
                }
            }
        }
        replies.async {
            completion(reply.bytes)
            self.state.withLock { $0.answered += 1 }
        }
    }
}

/// Ends every pause at once (the runner's pacing is not under test here), and remembers the pauses asked for.
final class ImmediateDemoScheduler: DemoScheduler {
    let requested = Mutex<[Double]>([])

    func schedule(after seconds: Double, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        requested.withLock { $0.append(seconds) }
        queue.async(execute: work)
    }
}

private func fastTiming() -> DemoRunner.Timing {
    var timing = DemoRunner.Timing()
    timing.moveInterval = 0.001
    timing.restBetweenGames = 0.01
    timing.retryDelay = 0.01
    return timing
}

@Suite("Demo runner", .ownThread)
struct DemoRunnerTests {
    @Test("plays a whole game through the host, then creates the next one")
    func playsGamesOverAndOver() async throws {
        let host = FakeDemoHost()
        let announced = Mutex<[DemoGame]>([])
        let scheduler = ImmediateDemoScheduler()
        let timing = fastTiming()
        let runner = DemoRunner(
            host: host, timing: timing, scheduler: scheduler, logger: .disabled, seed: 1,
            onGameCreated: { game in announced.withLock { $0.append(game) } })
        runner.start()
        defer { runner.stop() }
        #expect(eventually(within: .seconds(20)) { host.state.withLock { $0.created.count >= 2 } })
        runner.stop()
        let (first, commands) = host.state.withLock { ($0.games[GameID(rawValue: "g1")]!, $0.commands) }
        #expect(first.isFinished)
        #expect(commands.first?.contains(#""action":"start""#) == true)
        #expect(announced.withLock { $0.first } == DemoGame(id: GameID(rawValue: "g1"), spectatorLink: "/games/g1"))
        // The pacing asked of the scheduler: moves within moveInterval × (1 ± jitter), and the rest after a game.
        let pauses = scheduler.requested.withLock { $0 }
        let moves = timing.moveInterval * (1 - timing.jitter)...timing.moveInterval * (1 + timing.jitter)
        #expect(pauses.contains(timing.restBetweenGames))
        #expect(pauses.filter { $0 != timing.restBetweenGames }.allSatisfy { moves.contains($0) })
    }

    @Test("the demo's copy of its game matches the host's")
    func copyMatches() async throws {
        let host = FakeDemoHost()
        let runner = DemoRunner(
            host: host, timing: fastTiming(), scheduler: ImmediateDemoScheduler(), logger: .disabled, seed: 2)
        runner.start()
        #expect(eventually(within: .seconds(20)) { (runner.currentGame?.events.count ?? 0) >= 20 })
        runner.stop()
        // The command in flight when stop() ran still lands in both copies; wait for its reply, however slow.
        let id = try #require(runner.currentGame?.id)
        let settled = eventually(within: .seconds(10)) {
            runner.currentGame?.events.count == host.state.withLock { $0.games[id]?.events.count }
        }
        #expect(settled)
        let copy = try #require(runner.currentGame)
        let served = try #require(host.state.withLock { $0.games[copy.id] })
        #expect(copy.score == served.score)
        #expect(copy.events.map(\.commandID) == served.events.map(\.commandID))
    }

    @Test("after repeated refusals it gives up the game and starts another")
    func startsOverAfterRefusals() async throws {
        let host = FakeDemoHost()
        host.state.withLock { $0.refuseAll = true }
        let runner = DemoRunner(
            host: host, timing: fastTiming(), scheduler: ImmediateDemoScheduler(), logger: .disabled, seed: 3)
        runner.start()
        #expect(eventually(within: .seconds(20)) { host.state.withLock { $0.created.count >= 2 } })
        runner.stop()
        let commands = host.state.withLock { $0.commands.count }
        #expect(commands >= DemoRunner.maxConsecutiveErrors)
    }

    @Test("stop() ends the play: no command is sent afterwards, whatever was scheduled before it")
    func stops() throws {
        let host = FakeDemoHost()
        let scheduler = HeldDemoScheduler()
        let runner = DemoRunner(
            host: host, timing: fastTiming(), scheduler: scheduler, logger: .disabled, seed: 4)
        runner.start()
        // Each pause ends when the test says so: play until three commands went out.
        let played = eventually(within: .seconds(20)) {
            scheduler.fireAll()
            return host.state.withLock { $0.commands.count >= 3 }
        }
        #expect(played)
        runner.stop()
        // Every command's answer is handled, then what was scheduled before the stop comes due.
        #expect(eventually { host.state.withLock { $0.answered == $0.commands.count } })
        scheduler.drain()
        let count = host.state.withLock { $0.commands.count }
        scheduler.fireAll()
        scheduler.drain()
        #expect(host.state.withLock { $0.commands.count } == count)
        #expect(scheduler.heldCount == 0, "a step was scheduled after the stop")
    }
}

/// Holds every pause until the test ends it (`fireAll`): the test decides when the runner's next step comes.
final class HeldDemoScheduler: DemoScheduler {
    private let held = Mutex<[(queue: DispatchQueue, work: @Sendable () -> Void)]>([])
    private let runnerQueue = Mutex<DispatchQueue?>(nil)

    func schedule(after seconds: Double, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        runnerQueue.withLock { $0 = queue }
        held.withLock { $0.append((queue, work)) }
    }

    var heldCount: Int { held.withLock { $0.count } }

    /// Runs every held step on its queue, waiting for each.
    func fireAll() {
        let due = held.withLock { held in
            defer { held = [] }
            return held
        }
        for step in due { step.queue.sync(execute: step.work) }
    }

    /// Waits until the runner's queue has run what was handed to it so far (its queue is serial).
    func drain() {
        runnerQueue.withLock { $0 }?.sync {}
    }
}
