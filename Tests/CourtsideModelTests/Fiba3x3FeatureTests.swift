import CourtsideModel
import Testing

/// FIBA 3x3's scoreboard features beyond the score: shot clock, team fouls and the penalty, timeouts, possession.
@Suite("FIBA 3x3: shot clock, team fouls, timeouts, possession")
struct Fiba3x3FeatureTests {
    @Test("the 12-second shot clock starts and stops with the game clock and stops at zero by itself")
    func shotClockFollowsTheGameClock() throws {
        var game = makeGame(.fiba3x3)
        #expect(game.shotClock?.remainingMs(at: at(0)) == 12_000)
        try game.run(.clock(.start), at: 1_000)
        #expect(game.shotClock?.isRunning == true)
        #expect(game.shotClock?.remainingMs(at: at(5_000)) == 8_000)
        #expect(game.shotClock?.remainingMs(at: at(60_000)) == 0)
        try game.run(.clock(.pause), at: 4_000)
        #expect(game.shotClock?.isRunning == false)
        #expect(game.shotClock?.remainingMs(at: at(60_000)) == 9_000)
    }

    @Test("reset, set, pause and start each do one thing, and refuse what makes no sense")
    func shotClockCommands() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.shotClock(.start), at: 0)
        #expect(throws: GameError.shotClockAlreadyRunning) { try game.run(.shotClock(.start), at: 1_000) }
        try game.run(.shotClock(.reset(ms: nil)), at: 5_000)
        #expect(game.shotClock?.remainingMs(at: at(6_000)) == 11_000)
        try game.run(.shotClock(.pause), at: 6_000)
        #expect(throws: GameError.shotClockNotRunning) { try game.run(.shotClock(.pause), at: 7_000) }
        try game.run(.shotClock(.set(ms: 3_500)), at: 7_000)
        #expect(game.shotClock?.remainingMs(at: at(9_000)) == 3_500)
        #expect(throws: GameError.timeOutOfRange(12_001, allowed: 0...12_000)) {
            try game.run(.shotClock(.set(ms: 12_001)), at: 9_000)
        }
        #expect(throws: GameError.timeOutOfRange(0, allowed: 1...12_000)) {
            try game.run(.shotClock(.reset(ms: 0)), at: 9_000)
        }
        #expect(try game.rebuilt() == game)
    }

    @Test("the shot clock can be switched off: it then stays still and refuses its buttons until switched on")
    func shotClockOff() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.shotClock(.disable), at: 0)
        #expect(game.shotClock?.isEnabled == false)
        try game.run(.clock(.start), at: 1_000)
        #expect(game.shotClock?.isRunning == false)
        #expect(throws: GameError.shotClockOff) { try game.run(.shotClock(.reset(ms: nil)), at: 2_000) }
        try game.run(.shotClock(.enable), at: 3_000)
        #expect(game.shotClock?.isEnabled == true)
        #expect(game.shotClock?.remainingMs(at: at(9_000)) == 12_000)
        #expect(try game.rebuilt() == game)
    }

    @Test("pickup games have no shot clock, timeouts, possession or substitutions: those commands are refused")
    func pickupRefusesTheNewFeatures() {
        var game = makeGame(.pickup)
        #expect(game.shotClock == nil)
        #expect(throws: GameError.notInRules(.shotClock)) { try game.run(.shotClock(.start)) }
        #expect(throws: GameError.notInRules(.timeouts)) { try game.run(.timeout(.home)) }
        #expect(throws: GameError.notInRules(.possession)) { try game.run(.possession(.away)) }
        #expect(throws: GameError.notInRules(.substitutions)) {
            try game.run(.substitute(team: .home, playerOut: homeAce, playerIn: homeTwo))
        }
        #expect(game.isInPenalty(.home) == nil)
        #expect(game.events.isEmpty)
    }

    @Test("the 7th team foul puts a team in the penalty; the 10th also gives the other team the ball")
    func teamFoulPenalty() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.possession(.home))
        for foul in 1...6 {
            try game.move(homeAce, .foul, at: Int64(foul))
            #expect(game.teamFouls.home == foul)
            #expect(game.isInPenalty(.home) == false)
        }
        try game.move(homeTwo, .foul, at: 7)
        #expect(game.teamFouls.home == 7)
        #expect(game.isInPenalty(.home) == true)
        #expect(game.isInPenalty(.away) == false)
        try game.move(homeTwo, .foul, at: 8)
        try game.move(homeTwo, .foul, at: 9)
        #expect(game.possession == .home, "fouls 7 to 9 give free throws, not the ball")
        try game.move(homeTwo, .foul, at: 10)
        #expect(game.teamFouls.home == 10)
        #expect(game.possession == .away)
        #expect(try game.rebuilt() == game)
    }

    @Test("one timeout per team: it stops both clocks, and a second is refused")
    func oneTimeoutEach() throws {
        var game = makeGame(.fiba3x3)
        #expect(game.timeoutsLeft == TeamPair(both: 1))
        try game.run(.clock(.start), at: 0)
        try game.run(.timeout(.away), at: 30_000)
        #expect(game.timeoutsLeft == TeamPair(home: 1, away: 0))
        #expect(game.isPaused)
        #expect(game.shotClock?.isRunning == false)
        #expect(throws: GameError.noTimeoutsLeft(.away)) { try game.run(.timeout(.away), at: 31_000) }
        try game.run(.timeout(.home), at: 32_000)
        #expect(game.timeoutsLeft == TeamPair(both: 0))
    }

    @Test("the possession at the start is recorded and can change")
    func possession() throws {
        var game = makeGame(.fiba3x3)
        #expect(game.possession == nil)
        try game.run(.possession(.away))
        #expect(game.possession == .away)
        try game.run(.possession(.home), at: 1)
        #expect(game.possession == .home)
        #expect(try game.rebuilt() == game)
    }

    @Test("21 ends regulation, but 21 in overtime does not: overtime is won by 2 points")
    func targetInRegulationOnly() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        try game.scoreUntil(home: 20, away: 19, at: 1_000)
        try game.move(homeAce, .onePoint, at: 2_000)
        #expect(game.winner == .home)
        #expect(game.period == 1)

        var overtime = makeGame(.fiba3x3)
        try overtime.run(.clock(.start), at: 0)
        try overtime.scoreUntil(home: 19, away: 19, at: 1_000)
        overtime.advance(to: at(600_000))
        #expect(overtime.period == 2)
        #expect(overtime.isOvertimePeriod)
        #expect(overtime.periodLengthMs == nil)
        try overtime.move(awayAce, .twoPoints, at: 600_100)
        #expect(overtime.score.away == 21)
        #expect(overtime.winner == .away)
        #expect(overtime.isOvertimePeriod)
    }
}
