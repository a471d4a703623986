import CourtsideModel
import Testing

@Suite("Pickup rules: first to 15, win by 2")
struct PickupRulesTests {
    @Test("pickup is the default rules, untimed, first to 15 by 2")
    func pickupIsTheDefault() throws {
        let setup = try GameSetup(
            id: "g", homeTeam: "A", homePlayers: ["a", "b", "c"], awayTeam: "B", awayPlayers: ["d", "e", "f"])
        #expect(setup.rules == .pickup)
        #expect(Rules.pickup.targetScore == 15)
        #expect(Rules.pickup.winBy == 2)
        #expect(Rules.pickup.timeLimitMs == nil)
    }

    @Test("15-13 finishes with the home team winning")
    func fifteenThirteenFinishes() throws {
        var game = makeGame()
        try game.scoreUntil(home: 14, away: 13)
        #expect(!game.isFinished)
        try game.move(homeAce, .onePoint)
        #expect(game.score == ScoreLine(home: 15, away: 13))
        #expect(game.isFinished)
        #expect(game.winner == .home)
    }

    @Test("15-14 goes on, 16-14 finishes")
    func fifteenFourteenGoesOn() throws {
        var game = makeGame()
        try game.scoreUntil(home: 14, away: 14)
        try game.move(homeAce, .onePoint)
        #expect(game.score == ScoreLine(home: 15, away: 14))
        #expect(!game.isFinished)
        #expect(game.winner == nil)
        try game.move(homeTwo, .onePoint)
        #expect(game.score == ScoreLine(home: 16, away: 14))
        #expect(game.winner == .home)
    }

    @Test("a two-pointer from 14-14 finishes at 16-14")
    func twoPointerFromTie() throws {
        var game = makeGame()
        try game.scoreUntil(home: 14, away: 14)
        try game.move(awayTwo, .twoPoints)
        #expect(game.score == ScoreLine(home: 14, away: 16))
        #expect(game.winner == .away)
    }

    @Test("deuce goes on past the target until someone leads by 2")
    func deuceGoesOn() throws {
        var game = makeGame()
        try game.scoreUntil(home: 20, away: 20)
        #expect(!game.isFinished)
        try game.move(awayAce, .onePoint)
        #expect(!game.isFinished)
        try game.move(awayAce, .onePoint)
        #expect(game.score == ScoreLine(home: 20, away: 22))
        #expect(game.winner == .away)
    }

    @Test("assists, rebounds and fouls are counted per player and score nothing")
    func nonScoringMoves() throws {
        var game = makeGame()
        try game.move(homeAce, .assist)
        try game.move(homeAce, .assist)
        try game.move(homeTwo, .rebound)
        try game.move(awayAce, .foul)
        try game.move(awayAce, .twoPoints)
        #expect(game.score == ScoreLine(home: 0, away: 2))
        #expect(game.moveCount(for: homeAce, move: .assist) == 2)
        #expect(game.moveCount(for: homeTwo, move: .rebound) == 1)
        #expect(game.moveCount(for: awayAce, move: .foul) == 1)
        #expect(game.moveCount(for: awayAce, move: .twoPoints) == 1)
        #expect(game.moveCount(for: homeAce, move: .onePoint) == 0)
        #expect(game.moveCounts(for: awayAce)?.points == 2)
    }

    @Test("the rules decide a winner from the score alone")
    func winnerFunction() {
        let rules = Rules.pickup
        #expect(rules.winner(score: ScoreLine(home: 15, away: 13), scoreAtTimeLimit: nil) == .home)
        #expect(rules.winner(score: ScoreLine(home: 15, away: 14), scoreAtTimeLimit: nil) == nil)
        #expect(rules.winner(score: ScoreLine(home: 14, away: 16), scoreAtTimeLimit: nil) == .away)
        #expect(rules.winner(score: ScoreLine(home: 14, away: 12), scoreAtTimeLimit: nil) == nil)
    }
}
