import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import Testing

@testable import Courtside

/// `SharedFeedRouter`: a game another node stored that cannot be loaded is tried again after the retry delay, on
/// the router's scheduler (moved by hand here), or at its next entry.
@Suite("Shared feed router", .ownThread)
struct SharedFeedRouterTests {
    @Test("a game that cannot be loaded is loaded again after retryDelay, not before (time driven by hand)")
    func failedLoadRetried() throws {
        let app = try TestApp()
        let setup = try GameSetup(
            id: "g1", homeTeam: "Home", homePlayers: ["A", "B", "C"], awayTeam: "Away",
            awayPlayers: ["D", "E", "F"], rules: .pickup)
        // Its `loadGame` always fails (a game this store does not hold), and counts the attempts.
        let log = try FakeSharedLog(
            game: GameRecord(
                setup: setup, scorerTokenSHA256: [UInt8](repeating: 7, count: 32),
                createdAt: Timestamp(milliseconds: 1_700_000_000_000)))
        let scheduler = ManualScheduler()
        let router = SharedFeedRouter(
            core: app.app.core, journal: log, scheduler: scheduler, retryDelay: .seconds(1))
        router.created(GameID("elsewhere-1"))
        #expect(log.gameLoads == 1)
        // The load's failure comes from the store's side (another thread): then the retry is handed to the scheduler.
        try #require(eventually { scheduler.queuedTaskCount == 1 }, "the failed load was never retried")
        scheduler.run()
        #expect(scheduler.nextDeadline == scheduler.now + .seconds(1))
        scheduler.advance(by: .milliseconds(999))
        #expect(log.gameLoads == 1, "loaded again before the retry delay")
        scheduler.advance(by: .milliseconds(1))
        #expect(log.gameLoads == 2)
        // Failed again: another retry is armed, one at a time.
        // (Its failure may come while `advance` still runs the tasks handed in: the retry is then armed already.)
        try #require(eventually { scheduler.queuedTaskCount + scheduler.scheduledTimerCount == 1 })
        scheduler.run()
        #expect(scheduler.scheduledTimerCount == 1)
        #expect(app.app.core.registry.handle(GameID("elsewhere-1")) == nil)
    }
}
