import CourtsideModel
import Testing

@Suite("FIBA 3x3 rules: 21 points, 10:00, overtime")
struct Fiba3x3RulesTests {
    let tenMinutes: Int64 = 600_000

    @Test("the first team to 21 wins, even by one point")
    func firstToTwentyOne() throws {
        var game = makeGame(.fiba3x3)
        try game.scoreUntil(home: 20, away: 20)
        #expect(!game.isFinished)
        try game.move(awayAce, .onePoint)
        #expect(game.score == ScoreLine(home: 20, away: 21))
        #expect(game.winner == .away)
    }

    @Test("at 10:00 of game clock the team ahead wins, recorded at the exact instant")
    func teamAheadWinsAtTheLimit() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 1_000)
        try game.scoreUntil(home: 5, away: 3, at: 60_000)
        #expect(game.timeLimitDeadline == at(1_000 + tenMinutes))
        let tick1 = game.advance(to: at(tenMinutes))
        #expect(tick1 == nil)
        let tick2 = game.advance(to: at(tenMinutes + 999))
        #expect(tick2 == nil)
        #expect(!game.isFinished)

        let tick = game.advance(to: at(tenMinutes + 1_500))
        let event = try #require(tick)
        #expect(event.kind == .timeLimitReached)
        #expect(event.at == at(1_000 + tenMinutes))
        #expect(event.commandID == nil)
        #expect(game.winner == .home)
        #expect(game.isPaused)
        #expect(game.elapsedMs(at: at(5 * tenMinutes)) == tenMinutes)
        #expect(game.scoreAtTimeLimit == ScoreLine(home: 5, away: 3))
        #expect(game.timeLimitDeadline == nil)
        let tick3 = game.advance(to: at(9 * tenMinutes))
        #expect(tick3 == nil)
    }

    @Test("only running time counts toward the limit")
    func pausesDelayTheLimit() throws {
        var game = makeGame(.fiba3x3)
        try game.move(awayAce, .onePoint)
        try game.run(.clock(.start), at: 0)
        try game.run(.clock(.pause), at: 300_000)
        let tick4 = game.advance(to: at(900_000))
        #expect(tick4 == nil)
        try game.run(.clock(.start), at: 400_000)
        #expect(game.timeLimitDeadline == at(700_000))
        #expect(game.elapsedMs(at: at(650_000)) == 550_000)
        let tick5 = game.advance(to: at(699_999))
        #expect(tick5 == nil)
        let tick = game.advance(to: at(700_000))
        let event = try #require(tick)
        #expect(event.at == at(700_000))
        #expect(game.winner == .away)
    }

    @Test("elapsed time reads at most 10:00 before the limit is recorded")
    func elapsedIsCappedBeforeTheTick() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        #expect(game.elapsedMs(at: at(tenMinutes + 42_000)) == tenMinutes)
        #expect(game.isClockRunning)
    }

    @Test("a tie at 10:00 goes to overtime with the clock stopped")
    func tieGoesToOvertime() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        try game.scoreUntil(home: 7, away: 7, at: 1_000)
        let tick6 = game.advance(to: at(tenMinutes))
        #expect(tick6 != nil)
        #expect(!game.isFinished)
        #expect(game.isOvertime)
        #expect(game.isPaused)
        #expect(game.elapsedMs(at: at(tenMinutes + 5_000)) == tenMinutes)
    }

    @Test("the first team to score 2 points in overtime wins")
    func firstToTwoInOvertime() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        try game.scoreUntil(home: 7, away: 7, at: 1_000)
        game.advance(to: at(tenMinutes))
        try game.run(.clock(.start), at: tenMinutes + 60_000)
        try game.move(homeAce, .onePoint, at: tenMinutes + 70_000)
        try game.move(awayAce, .onePoint, at: tenMinutes + 80_000)
        #expect(game.isOvertime)
        #expect(!game.isFinished)
        try game.move(awayTwo, .onePoint, at: tenMinutes + 90_000)
        #expect(game.score == ScoreLine(home: 8, away: 9))
        #expect(game.winner == .away)
        #expect(!game.isOvertime)
        #expect(game.isPaused)
        #expect(game.elapsedMs(at: at(99 * tenMinutes)) == tenMinutes + 30_000)
    }

    @Test("a two-pointer wins overtime at once")
    func twoPointerWinsOvertime() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        game.advance(to: at(tenMinutes))
        #expect(game.isOvertime)
        try game.move(homeTwo, .twoPoints, at: tenMinutes + 1)
        #expect(game.winner == .home)
    }

    @Test("21 points in overtime is not a win by itself: overtime needs 2 points")
    func targetDoesNotApplyInOvertime() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        try game.scoreUntil(home: 20, away: 20, at: 1_000)
        game.advance(to: at(tenMinutes))
        try game.move(homeAce, .onePoint, at: tenMinutes + 1)
        #expect(game.score == ScoreLine(home: 21, away: 20))
        #expect(!game.isFinished)
        try game.move(homeAce, .onePoint, at: tenMinutes + 2)
        #expect(game.winner == .home)
    }

    @Test("a move arriving after the limit on a tie records the limit first, then counts in overtime")
    func lateMoveOnTieRecordsTheLimit() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        let outcome = try game.move(homeAce, .twoPoints, at: tenMinutes + 5_000)
        #expect(outcome.newEvents.count == 2)
        #expect(outcome.newEvents.first?.kind == .timeLimitReached)
        #expect(outcome.newEvents.first?.at == at(tenMinutes))
        #expect(outcome.newEvents.last == outcome.event)
        #expect(outcome.event.at == at(tenMinutes + 5_000))
        #expect(game.winner == .home)
        #expect(try game.rebuilt() == game)
    }

    @Test("a move arriving after the limit with a team ahead is refused, and the game stays as it was")
    func lateMoveWithLeaderIsRefused() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        try game.move(awayAce, .onePoint, at: 1_000)
        let before = game
        #expect(throws: GameError.moveAfterFinish(winner: .away)) {
            try game.move(homeAce, .onePoint, at: tenMinutes + 5_000)
        }
        #expect(game == before)
        let tick7 = game.advance(to: at(tenMinutes + 5_000))
        #expect(tick7?.at == at(tenMinutes))
        #expect(game.winner == .away)
    }
}
