import CourtsideModel
import Testing

@Suite("Undo")
struct UndoTests {
    @Test("undoing the winning basket reopens the game with the clock still stopped")
    func undoWinningBasketReopens() throws {
        var game = makeGame()
        try game.run(.clock(.start), at: 0)
        try game.scoreUntil(home: 14, away: 13, at: 1_000)
        try game.move(homeAce, .onePoint, at: 30_000)
        #expect(game.winner == .home)
        #expect(game.isPaused)

        let outcome = try game.run(.undo, at: 45_000)
        #expect(outcome.event.kind == .undo(undoes: outcome.event.sequence - 1))
        #expect(!game.isFinished)
        #expect(game.winner == nil)
        #expect(game.score == ScoreLine(home: 14, away: 13))
        #expect(game.moveCount(for: homeAce, move: .onePoint) == 14)
        #expect(game.isPaused)
        #expect(game.elapsedMs(at: at(45_000)) == 30_000)

        try game.move(awayAce, .onePoint, at: 46_000)
        #expect(game.score == ScoreLine(home: 14, away: 14))
        try game.run(.clock(.start), at: 50_000)
        #expect(game.elapsedMs(at: at(51_000)) == 31_000)
    }

    @Test("undo reverts the most recent move, skipping clock commands")
    func undoSkipsClockCommands() throws {
        var game = makeGame()
        try game.move(homeTwo, .rebound, at: 0)
        try game.run(.clock(.start), at: 1_000)
        try game.run(.undo, at: 2_000)
        #expect(game.moveCount(for: homeTwo, move: .rebound) == 0)
        #expect(game.isClockRunning)
        #expect(game.elapsedMs(at: at(3_000)) == 2_000)
    }

    @Test("successive undos walk back through the moves, then there is nothing to undo")
    func successiveUndos() throws {
        var game = makeGame()
        try game.move(homeAce, .onePoint)
        try game.move(awayAce, .twoPoints)
        try game.move(awayAce, .foul)
        try game.run(.undo)
        #expect(game.moveCount(for: awayAce, move: .foul) == 0)
        #expect(game.score == ScoreLine(home: 1, away: 2))
        try game.run(.undo)
        #expect(game.score == ScoreLine(home: 1, away: 0))
        try game.run(.undo)
        #expect(game.score == ScoreLine())
        #expect(!game.canUndo)
        #expect(throws: GameError.nothingToUndo) { try game.run(.undo) }
    }

    @Test("an undo is not undone by the next undo")
    func undoIsNotUndoable() throws {
        var game = makeGame()
        try game.move(homeAce, .onePoint)
        try game.move(homeAce, .twoPoints)
        try game.run(.undo)
        try game.move(awayAce, .onePoint)
        try game.run(.undo)
        try game.run(.undo)
        #expect(game.score == ScoreLine())
    }

    @Test("undoing the winning overtime basket reopens overtime")
    func undoInOvertime() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        game.advance(to: at(600_000))
        try game.move(awayAce, .twoPoints, at: 600_100)
        #expect(game.winner == .away)
        try game.run(.undo, at: 600_200)
        #expect(game.isOvertime)
        #expect(game.scoreAtTimeLimit == ScoreLine())
        try game.move(homeAce, .twoPoints, at: 600_300)
        #expect(game.winner == .home)
    }

    @Test("undoing a move from before the time limit re-decides the limit: a tie there means overtime")
    func undoBeforeTheLimit() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        try game.move(homeAce, .onePoint, at: 1_000)
        game.advance(to: at(600_000))
        #expect(game.winner == .home)
        try game.run(.undo, at: 700_000)
        #expect(game.scoreAtTimeLimit == ScoreLine())
        #expect(game.isOvertime)
        #expect(game.isPaused)
        #expect(game.elapsedMs(at: at(800_000)) == 600_000)
        #expect(try game.rebuilt() == game)
    }

    @Test("undo may finish a reopened overtime game when the earlier limit score then had a leader")
    func undoThatFinishesStopsTheClock() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        try game.move(homeAce, .onePoint, at: 1_000)
        try game.move(awayAce, .twoPoints, at: 2_000)
        try game.move(homeAce, .onePoint, at: 3_000)
        game.advance(to: at(600_000))
        #expect(game.isOvertime)
        try game.run(.clock(.start), at: 610_000)
        try game.run(.undo, at: 620_000)
        #expect(game.scoreAtTimeLimit == ScoreLine(home: 1, away: 2))
        #expect(game.winner == .away)
        #expect(game.isPaused)
        #expect(game.elapsedMs(at: at(700_000)) == 610_000)
    }
}
