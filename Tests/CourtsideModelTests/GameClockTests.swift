import CourtsideModel
import Testing

@Suite("Game clock with injected time")
struct GameClockTests {
    @Test("elapsed time counts only while the clock runs")
    func countsOnlyWhileRunning() {
        var clock = GameClock()
        #expect(clock.elapsedMs(at: at(5_000)) == 0)
        let started = clock.start(at: at(1_000))
        #expect(started)
        #expect(clock.elapsedMs(at: at(3_500)) == 2_500)
        let paused = clock.pause(at: at(4_000))
        #expect(paused)
        #expect(clock.elapsedMs(at: at(10_000)) == 3_000)
        let restarted = clock.start(at: at(20_000))
        #expect(restarted)
        #expect(clock.elapsedMs(at: at(21_000)) == 4_000)
        #expect(clock.isRunning)
    }

    @Test("starting a running clock or pausing a stopped one changes nothing")
    func redundantTransitions() {
        var clock = GameClock()
        let paused = clock.pause(at: at(1))
        #expect(!paused)
        #expect(clock == GameClock())
        clock.start(at: at(10))
        let running = clock
        let startedAgain = clock.start(at: at(20))
        #expect(!startedAgain)
        #expect(clock == running)
    }

    @Test("a reading before the run started counts that run as zero")
    func readingBeforeStart() {
        var clock = GameClock()
        clock.start(at: at(0))
        clock.pause(at: at(700))
        clock.start(at: at(10_000))
        #expect(clock.elapsedMs(at: at(9_000)) == 700)
    }

    @Test("the instant for an elapsed reading is known while running")
    func instantForElapsed() {
        var clock = GameClock()
        #expect(clock.instant(whenElapsedIs: 100) == nil)
        clock.start(at: at(0))
        clock.pause(at: at(400))
        clock.start(at: at(1_000))
        #expect(clock.instant(whenElapsedIs: 1_000) == at(1_600))
    }

    @Test("a game starts paused and its clock follows start and pause commands")
    func gameClockCommands() throws {
        var game = makeGame()
        #expect(game.isPaused)
        try game.run(.clock(.start), at: 1_000)
        #expect(!game.isPaused)
        #expect(game.elapsedMs(at: at(2_000)) == 1_000)
        try game.run(.clock(.pause), at: 2_500)
        #expect(game.isPaused)
        #expect(game.elapsedMs(at: at(60_000)) == 1_500)
    }

    @Test("the clock stops by itself when the winning basket is scored")
    func stopsAtFinish() throws {
        var game = makeGame(try .custom(targetScore: 3))
        try game.run(.clock(.start), at: 0)
        try game.move(homeAce, .twoPoints, at: 4_000)
        #expect(game.isClockRunning)
        try game.move(homeAce, .onePoint, at: 9_000)
        #expect(game.isFinished)
        #expect(game.isPaused)
        #expect(game.elapsedMs(at: at(100_000)) == 9_000)
    }

    @Test("a command dated before the latest event is recorded at the latest event's instant")
    func timeNeverRunsBackwards() throws {
        var game = makeGame()
        try game.run(.clock(.start), at: 5_000)
        let outcome = try game.move(homeAce, .onePoint, at: 3_000)
        #expect(outcome.event.at == at(5_000))
        try game.run(.clock(.pause), at: 4_000)
        #expect(game.elapsedMs(at: at(50_000)) == 0)
        #expect(try game.rebuilt() == game)
    }
}

@Suite("Absurd instants")
struct AbsurdInstantTests {
    @Test("instants at the ends of Int64 saturate instead of trapping, and still replay")
    func extremes() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: .min)
        #expect(game.timeLimitDeadline == at(.min + 600_000))
        try game.move(homeAce, .twoPoints, at: .max)
        #expect(game.winner == .home)
        #expect(game.events.map(\.at) == [at(.min), at(.min + 600_000), at(.max)])
        #expect(try game.rebuilt() == game)
        var clock = GameClock()
        clock.start(at: at(.min))
        #expect(clock.elapsedMs(at: at(.max)) == .max)
        #expect(at(.max).milliseconds(since: at(.min)) == .max)
        #expect(at(.min).milliseconds(since: at(.max)) == .min)
        #expect(at(.max).advanced(byMilliseconds: 1) == at(.max))
    }
}
