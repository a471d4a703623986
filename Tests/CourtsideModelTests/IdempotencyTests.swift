import CourtsideModel
import Testing

@Suite("Idempotent command ids")
struct IdempotencyTests {
    @Test("the same move id applied twice changes nothing the second time and answers the same")
    func duplicateMove() throws {
        var game = makeGame()
        let first = try game.apply(.move(homeAce, .twoPoints, id: "c1"), at: at(100))
        #expect(!first.isDuplicate)
        #expect(first.newEvents == [first.event])
        let afterFirst = game
        let second = try game.apply(.move(homeAce, .twoPoints, id: "c1"), at: at(900))
        #expect(second.isDuplicate)
        #expect(second.event == first.event)
        #expect(second.newEvents.isEmpty)
        #expect(game == afterFirst)
        #expect(game.score == ScoreLine(home: 2, away: 0))
    }

    @Test("a retry after other commands still answers with the original event")
    func retryAfterOtherCommands() throws {
        var game = makeGame()
        let first = try game.apply(.move(awayAce, .onePoint, id: "a"), at: at(0))
        try game.apply(.move(homeAce, .onePoint, id: "b"), at: at(1))
        try game.apply(.startClock(id: "c"), at: at(2))
        let snapshot = game
        #expect(try game.apply(.move(awayAce, .onePoint, id: "a"), at: at(3)).event == first.event)
        #expect(game == snapshot)
        #expect(game.event(forCommand: "a") == first.event)
        #expect(game.event(forCommand: "zzz") == nil)
    }

    @Test("an undo id applied twice undoes only once")
    func duplicateUndo() throws {
        var game = makeGame()
        try game.move(homeAce, .onePoint)
        try game.move(homeAce, .onePoint)
        let first = try game.apply(.undo(id: "u"), at: at(5))
        let second = try game.apply(.undo(id: "u"), at: at(6))
        #expect(second.event == first.event)
        #expect(second.isDuplicate)
        #expect(game.score == ScoreLine(home: 1, away: 0))
    }

    @Test("a clock start id retried while running answers the original, not clock_running")
    func duplicateClockStart() throws {
        var game = makeGame()
        let first = try game.apply(.startClock(id: "s"), at: at(5))
        #expect(try game.apply(.startClock(id: "s"), at: at(6)) == CommandOutcome(event: first.event, newEvents: []))
    }

    @Test("a retry of the winning basket after the game finished answers the original, not game_finished")
    func duplicateAfterFinish() throws {
        var game = makeGame(try .custom(targetScore: 1))
        let first = try game.apply(.move(homeAce, .onePoint, id: "w"), at: at(5))
        #expect(game.isFinished)
        #expect(try game.apply(.move(homeAce, .onePoint, id: "w"), at: at(6)).event == first.event)
    }

    @Test("the record of accepted ids is rebuilt from the events")
    func recordSurvivesReplay() throws {
        var game = makeGame()
        let first = try game.apply(.move(homeAce, .onePoint, id: "c1"), at: at(0))
        var rebuilt = try game.rebuilt()
        let retry = try rebuilt.apply(.move(homeAce, .onePoint, id: "c1"), at: at(10))
        #expect(retry.isDuplicate)
        #expect(retry.event == first.event)
        #expect(rebuilt == game)
    }

    @Test("a rejected command leaves no record, so its id can be used once the game allows it")
    func rejectedLeavesNoRecord() throws {
        var game = makeGame()
        #expect(throws: GameError.nothingToUndo) { try game.apply(.undo(id: "u"), at: at(0)) }
        try game.move(homeAce, .onePoint, at: 1)
        #expect(try !game.apply(.undo(id: "u"), at: at(2)).isDuplicate)
    }
}
