import CourtsideModel
import Testing

@Suite("Corrections: edit and delete any play, set the clock, confirm final, reopen")
struct CorrectionTests {
    @Test("editing a play three back changes the score, both counts and the play in one event")
    func editThreeBack() throws {
        var game = makeGame(.fiba3x3)
        try game.move(homeAce, .twoPoints, at: 1)
        try game.move(awayAce, .onePoint, at: 2)
        try game.move(homeTwo, .rebound, at: 3)
        try game.move(awayTwo, .assist, at: 4)
        let before = game.events.count
        try game.run(.editPlay(play: 1, player: homeTwo, move: .onePoint), at: 5)
        #expect(game.events.count == before + 1)
        #expect(game.score == ScoreLine(home: 1, away: 1))
        #expect(game.moveCount(for: homeAce, move: .twoPoints) == 0)
        #expect(game.moveCount(for: homeTwo, move: .onePoint) == 1)
        #expect(game.plays[0].isEdited)
        #expect(game.plays[0].player == homeTwo)
        #expect(game.plays[0].move == .onePoint)
        #expect(game.plays.count == 4)
        #expect(try game.rebuilt() == game)
    }

    @Test("an edit can move a play to the other team, with its team fouls")
    func editAcrossTeams() throws {
        var game = makeGame(.fiba3x3)
        try game.move(homeAce, .foul, at: 1)
        try game.run(.editPlay(play: 1, player: awayAce, move: .foul), at: 2)
        #expect(game.teamFouls == TeamPair(home: 0, away: 1))
        #expect(game.plays[0].team == .away)
    }

    @Test("deleting any play takes it out of every count; undo then skips it")
    func deleteThenUndo() throws {
        var game = makeGame(.pickup)
        try game.move(homeAce, .twoPoints, at: 1)
        try game.move(awayAce, .onePoint, at: 2)
        try game.move(homeTwo, .onePoint, at: 3)
        try game.run(.deletePlay(play: 3), at: 4)
        #expect(game.score == ScoreLine(home: 2, away: 1))
        #expect(game.plays[2].isDeleted)
        #expect(throws: GameError.playDeleted(3)) { try game.run(.deletePlay(play: 3), at: 5) }
        #expect(throws: GameError.playDeleted(3)) {
            try game.run(.editPlay(play: 3, player: homeAce, move: .foul), at: 5)
        }
        #expect(throws: GameError.unknownPlay(9)) { try game.run(.deletePlay(play: 9), at: 5) }
        let undo = try game.run(.undo, at: 6)
        #expect(undo.event.kind == .undo(undoes: 2))
        #expect(game.score == ScoreLine(home: 2, away: 0))
        #expect(game.plays[1].isDeleted)
        #expect(try game.rebuilt() == game)
    }

    @Test("deleting the winning basket reopens the game; editing a basket can finish it")
    func correctionsDecideTheWinner() throws {
        var game = makeGame(try .custom(targetScore: 3))
        try game.move(homeAce, .twoPoints, at: 1)
        try game.move(homeTwo, .onePoint, at: 2)
        #expect(game.winner == .home)
        try game.run(.deletePlay(play: 1), at: 3)
        #expect(game.winner == nil)
        try game.run(.editPlay(play: 2, player: awayAce, move: .twoPoints), at: 4)
        #expect(game.score == ScoreLine(home: 0, away: 2))
        try game.run(.editPlay(play: 2, player: awayAce, move: .onePoint), at: 5)
        try game.move(awayAce, .twoPoints, at: 6)
        #expect(game.winner == .away)
    }

    @Test("a correction before the end of regulation re-decides it: a lead taken away means overtime")
    func correctionBeforeTheLimit() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        try game.move(homeAce, .onePoint, at: 1_000)
        game.advance(to: at(600_000))
        #expect(game.winner == .home)
        try game.run(.editPlay(play: 1, player: homeAce, move: .rebound), at: 700_000)
        #expect(game.scoreAtTimeLimit == ScoreLine())
        #expect(game.isOvertime)
        #expect(game.period == 2)
        #expect(try game.rebuilt() == game)
    }

    @Test("setClock corrects the period's clock, running or not, within the period")
    func setClock() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        try game.run(.setClock(elapsedMs: 100_000), at: 10_000)
        #expect(game.elapsedMs(at: at(15_000)) == 105_000)
        #expect(game.timeLimitDeadline == at(510_000))
        #expect(throws: GameError.timeOutOfRange(600_001, allowed: 0...600_000)) {
            try game.run(.setClock(elapsedMs: 600_001), at: 16_000)
        }
        #expect(try game.rebuilt() == game)
    }

    @Test("final locks the game: every later command is refused until an administrator reopens it")
    func finalAndReopen() throws {
        var game = makeGame(.fiba3x3)
        try game.run(.clock(.start), at: 0)
        try game.move(homeAce, .twoPoints, at: 1_000)
        try game.run(.final, at: 2_000)
        #expect(game.isLocked)
        #expect(game.isPaused)
        #expect(throws: GameError.gameLocked) { try game.move(homeAce, .onePoint, at: 3_000) }
        #expect(throws: GameError.gameLocked) { try game.run(.undo, at: 3_000) }
        #expect(throws: GameError.gameLocked) { try game.run(.final, at: 3_000) }
        // A retry of the final itself still gets its answer.
        let retry = try game.apply(GameCommand(id: "t3", action: .final), at: at(3_000))
        #expect(retry.isDuplicate)
        let reopened = try game.reopen(at: at(4_000))
        #expect(reopened.kind == .reopened)
        #expect(reopened.commandID == nil)
        #expect(!game.isLocked)
        #expect(throws: GameError.notLocked) { try game.reopen(at: at(4_000)) }
        try game.move(homeAce, .onePoint, at: 5_000)
        #expect(try game.rebuilt() == game)
    }

    @Test("plays record their period, game clock and wall time")
    func playFields() throws {
        var game = makeGame5x5()
        try game.run(.clock(.start), at: 1_000)
        try game.move(PlayerID(side: .away, index: 3), .twoPoints, at: 13_500)
        let play = try #require(game.plays.first)
        #expect(play.number == 1)
        #expect(play.sequence == 2)
        #expect(play.period == 1)
        #expect(play.elapsedMs == 12_500)
        #expect(play.at == at(13_500))
        #expect(play.team == .away)
    }
}
