import CourtsideModel
import Testing

private let h = (0..<8).map { PlayerID(side: .home, index: $0) }
private let a = (0..<8).map { PlayerID(side: .away, index: $0) }

@Suite("Statistics: moves by preset, fouls and disqualifications, team moves, endPeriod")
struct StatisticsRulesTests {
    @Test(
        "a move the rules do not have is refused with move_not_in_rules, in moves and corrections",
        arguments: [
            (Rules.fiba5x5, PlayerMove.onePoint), (.fiba5x5, .onePointMissed), (.fiba3x3, .threePoints),
            (.fiba3x3, .threePointsMissed), (.pickup, .threePoints), (.pickup, .threePointsMissed),
        ])
    func refusedByPreset(rules: Rules, move: PlayerMove) throws {
        var game = rules == .fiba5x5 ? makeGame5x5() : makeGame(rules)
        let before = game
        #expect(throws: GameError.moveNotInRules(move)) { try game.move(homeAce, move, at: 1) }
        #expect(game == before)
        #expect(GameError.moveNotInRules(move).code.rawValue == "move_not_in_rules")
        try game.move(homeAce, .freeThrow, at: 2)
        #expect(throws: GameError.moveNotInRules(move)) {
            try game.run(.editPlay(play: 1, player: homeAce, move: move), at: 3)
        }
    }

    @Test("each preset takes its field goals: 1 and 2 (pickup, 3x3), 2 and 3 (5x5); a free throw is 1 everywhere")
    func fieldGoalValues() throws {
        var pickup = makeGame(.pickup)
        for move: PlayerMove in [.onePoint, .onePointMissed, .twoPoints, .twoPointsMissed, .freeThrow] {
            try pickup.move(homeAce, move, at: 1)
        }
        #expect(pickup.score == ScoreLine(home: 4, away: 0))
        let line = try #require(pickup.stats(for: homeAce, at: at(1)))
        #expect(line.fieldGoalsMade == 2 && line.fieldGoalsAttempted == 4)
        #expect(line.twoPointersMade == 1 && line.twoPointersAttempted == 2)
        #expect(line.threePointersAttempted == 0)
        #expect(line.freeThrowsMade == 1 && line.freeThrowsAttempted == 1)
        var fiba = makeGame5x5()
        for move: PlayerMove in [.threePoints, .threePointsMissed, .twoPoints, .freeThrowMissed, .freeThrow] {
            try fiba.move(h[0], move, at: 1)
        }
        #expect(fiba.score == ScoreLine(home: 6, away: 0))
        let fibaLine = try #require(fiba.stats(for: h[0], at: at(1)))
        #expect(fibaLine.fieldGoalsMade == 2 && fibaLine.fieldGoalsAttempted == 3)
        #expect(fibaLine.threePointersMade == 1 && fibaLine.threePointersAttempted == 2)
        #expect(fibaLine.freeThrowsMade == 1 && fibaLine.freeThrowsAttempted == 2)
    }

    @Test("efficiency is FIBA's: PTS + REB + AST + STL + BLK - missed FG - missed FT - TOV")
    func efficiency() throws {
        var game = makeGame5x5()
        let moves: [PlayerMove] = [
            .threePoints, .twoPointsMissed, .freeThrow, .freeThrowMissed, .offensiveRebound, .defensiveRebound,
            .rebound, .assist, .steal, .block, .turnover, .foul,
        ]
        for move in moves { try game.move(h[1], move, at: 1) }
        let line = try #require(game.stats(for: h[1], at: at(1)))
        #expect(line.points == 4)
        #expect(line.rebounds == 3 && line.offensiveRebounds == 1 && line.defensiveRebounds == 1)
        // 4 + 3 + 1 + 1 + 1 - 1 - 1 - 1
        #expect(line.efficiency == 7)
        #expect(line.fouls == 1)
    }

    @Test("5x5: the 5th foul of any kind puts a player out; they get no moves and cannot come back")
    func foulOut() throws {
        var game = makeGame5x5()
        for move: PlayerMove in [.foul, .offensiveFoul, .foul, .technicalFoul] { try game.move(h[0], move, at: 1) }
        #expect(game.stats(for: h[0], at: at(1))?.fouledOut == false)
        #expect(game.isEligible(h[0]))
        try game.move(h[0], .foul, at: 2)
        #expect(game.stats(for: h[0], at: at(2))?.fouledOut == true)
        #expect(game.teamFouls.home == 5, "every player foul is a team foul")
        #expect(throws: GameError.playerNotEligible(h[0])) { try game.move(h[0], .twoPoints, at: 3) }
        #expect(GameError.playerNotEligible(h[0]).code.rawValue == "player_not_eligible")
        try game.run(.substitute(team: .home, playerOut: h[0], playerIn: h[5]), at: 4)
        #expect(throws: GameError.playerNotEligible(h[0])) {
            try game.run(.substitute(team: .home, playerOut: h[5], playerIn: h[0]), at: 5)
        }
        // Deleting a foul gives the player back.
        try game.run(.deletePlay(play: 5), at: 6)
        #expect(game.isEligible(h[0]))
        #expect(try game.rebuilt() == game)
    }

    @Test(
        "5x5: two technicals, two unsportsmanlike, one of each, or one disqualifying foul disqualify",
        arguments: [
            [PlayerMove.technicalFoul, .technicalFoul], [.unsportsmanlikeFoul, .unsportsmanlikeFoul],
            [.technicalFoul, .unsportsmanlikeFoul], [.unsportsmanlikeFoul, .technicalFoul], [.disqualifyingFoul],
        ])
    func disqualification5x5(fouls: [PlayerMove]) throws {
        var game = makeGame5x5()
        for (index, foul) in fouls.enumerated() {
            #expect(game.stats(for: h[2], at: at(0))?.disqualified == false)
            try game.move(h[2], foul, at: Int64(index))
        }
        let line = try #require(game.stats(for: h[2], at: at(9)))
        #expect(line.disqualified)
        #expect(!line.fouledOut)
        #expect(line.fouls == fouls.count)
        #expect(throws: GameError.playerNotEligible(h[2])) { try game.move(h[2], .steal, at: 10) }
    }

    @Test("3x3: no foul-out; two unsportsmanlike fouls disqualify, technicals do not count")
    func fouls3x3() throws {
        var game = makeGame(.fiba3x3)
        for _ in 1...7 { try game.move(homeAce, .foul, at: 1) }
        try game.move(homeAce, .technicalFoul, at: 1)
        try game.move(homeAce, .technicalFoul, at: 1)
        #expect(game.stats(for: homeAce, at: at(1))?.fouledOut == false)
        #expect(game.stats(for: homeAce, at: at(1))?.disqualified == false)
        try game.move(homeAce, .unsportsmanlikeFoul, at: 2)
        #expect(game.isEligible(homeAce))
        try game.move(homeAce, .unsportsmanlikeFoul, at: 3)
        #expect(game.stats(for: homeAce, at: at(3))?.disqualified == true)
        #expect(throws: GameError.playerNotEligible(homeAce)) { try game.move(homeAce, .onePoint, at: 4) }
    }

    @Test("pickup: fouls never put a player out")
    func pickupFouls() throws {
        var game = makeGame(.pickup)
        for move: PlayerMove in [.foul, .foul, .foul, .foul, .foul, .foul, .disqualifyingFoul] {
            try game.move(homeAce, move, at: 1)
        }
        #expect(game.isEligible(homeAce))
        try game.move(homeAce, .onePoint, at: 2)
    }

    @Test(
        "a coach is disqualified by 2 coach technicals or 3 with the bench's, or a disqualifying foul",
        arguments: [
            ([TeamMove.coachTechnical, .coachTechnical], true), ([.coachTechnical, .benchTechnical], false),
            ([.benchTechnical, .benchTechnical], false), ([.benchTechnical, .coachTechnical, .benchTechnical], true),
            ([.benchTechnical, .benchTechnical, .benchTechnical], true), ([.coachDisqualifying], true),
        ])
    func coach(moves: [TeamMove], disqualified: Bool) throws {
        var game = makeGame5x5()
        for move in moves { try game.run(.teamMove(team: .away, move: move), at: 1) }
        let stats = game.teamStats(.away, at: at(1))
        #expect(stats.coachDisqualified == disqualified)
        #expect(stats.coachTechnicals == moves.filter { $0 == .coachTechnical }.count)
        #expect(stats.benchTechnicals == moves.filter { $0 == .benchTechnical }.count)
        #expect(game.teamFouls.away == 0, "fouls charged to the coach are not team fouls")
        #expect(game.teamStats(.home, at: at(1)).coachTechnicals == 0)
        #expect(try game.rebuilt() == game)
    }

    @Test("team rebounds and turnovers count for the team, undo reverts a team move, no coach outside 5x5")
    func teamMoves() throws {
        var game = makeGame5x5()
        try game.run(.teamMove(team: .home, move: .offensiveRebound), at: 1)
        try game.run(.teamMove(team: .home, move: .rebound), at: 2)
        try game.run(.teamMove(team: .home, move: .turnover), at: 3)
        var stats = game.teamStats(.home, at: at(3))
        #expect(stats.teamRebounds == 2 && stats.teamTurnovers == 1)
        #expect(stats.players.rebounds == 0)
        try game.run(.undo, at: 4)
        stats = game.teamStats(.home, at: at(4))
        #expect(stats.teamTurnovers == 0)
        #expect(game.teamActions.last?.isDeleted == true)
        #expect(try game.rebuilt() == game)
        var pickup = makeGame(.pickup)
        #expect(throws: GameError.teamMoveNotInRules(.coachTechnical)) {
            try pickup.run(.teamMove(team: .home, move: .coachTechnical), at: 1)
        }
        try pickup.run(.teamMove(team: .home, move: .defensiveRebound), at: 1)
    }

    @Test("endPeriod ends the period exactly as the clock running out would")
    func endPeriod() throws {
        var byClock = makeGame5x5()
        var byHand = makeGame5x5()
        for game in [0, 1] {
            if game == 0 {
                try byClock.run(.clock(.start), at: 0)
                try byClock.move(h[0], .twoPoints, at: 100_000)
                byClock.advance(to: at(quarter))
            } else {
                try byHand.run(.clock(.start), at: 0)
                try byHand.move(h[0], .twoPoints, at: 100_000)
                try byHand.run(.clock(.pause), at: 400_000)
                try byHand.run(.endPeriod, at: 500_000)
            }
        }
        for game in [byClock, byHand] {
            #expect(game.period == 2)
            #expect(game.lastEndedPeriod == 1)
            #expect(game.isPaused)
            #expect(game.elapsedMs(at: at(900_000)) == 0)
            #expect(game.periodScores == [ScoreLine(home: 2, away: 0), ScoreLine()])
            #expect(game.playedMs(h[0], at: at(900_000)) == quarter, "a full period on court")
            #expect(game.playedMs(h[5], at: at(900_000)) == 0)
        }
        #expect(byHand.events.last?.kind == .endPeriod)
        #expect(try byHand.rebuilt() == byHand)
        // The end of the 4th period decides the game, as the clock would.
        for _ in 2...4 { try byHand.run(.endPeriod, at: 600_000) }
        #expect(byHand.winner == .home)
        #expect(throws: GameError.afterFinish(winner: .home)) { try byHand.run(.endPeriod, at: 700_000) }
        var pickup = makeGame(.pickup)
        #expect(throws: GameError.notInRules(.timedPeriods)) { try pickup.run(.endPeriod, at: 1) }
    }

    @Test("minutes are exact to the millisecond across substitutions, clock pauses and period ends")
    func minutes() throws {
        var game = makeGame5x5()
        try game.run(.clock(.start), at: 0)
        // h[0] leaves at 3:00.5 of game time; h[5] comes in.
        try game.run(.clock(.pause), at: 180_500)
        try game.run(.substitute(team: .home, playerOut: h[0], playerIn: h[5]), at: 190_000)
        try game.run(.clock(.start), at: 200_000)
        #expect(game.playedMs(h[0], at: at(300_000)) == 180_500)
        #expect(game.playedMs(h[5], at: at(300_000)) == 100_000)
        #expect(game.playedMs(h[1], at: at(300_000)) == 280_500)
        // A correction of the clock moves those on court with it.
        try game.run(.setClock(elapsedMs: 200_000), at: 300_000)
        #expect(game.playedMs(h[5], at: at(300_000)) == 19_500)
        game.advance(to: at(800_000))
        #expect(game.period == 2)
        #expect(game.playedMs(h[5], at: at(800_000)) == quarter - 180_500)
        #expect(game.playedMs(h[1], at: at(800_000)) == quarter)
        // In period 2, h[0] comes back at 1:00 of game time.
        try game.run(.clock(.start), at: 800_000)
        try game.run(.substitute(team: .home, playerOut: h[5], playerIn: h[0]), at: 860_000)
        #expect(game.playedMs(h[0], at: at(900_000)) == 180_500 + 40_000)
        #expect(game.playedMs(h[5], at: at(900_000)) == quarter - 180_500 + 60_000)
        // The document's reading (the clock's latest start) leaves the running time to the page.
        let reading = try #require(game.statsAtClockReading(for: h[0]))
        #expect(reading.playedMs == 180_500 - 60_000)
        #expect(try game.rebuilt() == game)
        // Five on court all the time make 5 × the game time.
        let total = game.teamStats(.home, at: at(900_000)).players.playedMs
        #expect(total == 5 * (quarter + 100_000))
    }

    @Test("plus-minus is the score difference while on court, corrected with the play it comes from")
    func plusMinus() throws {
        var game = makeGame5x5()
        try game.move(h[0], .threePoints, at: 1)
        try game.run(.substitute(team: .home, playerOut: h[0], playerIn: h[5]), at: 2)
        try game.move(a[0], .twoPoints, at: 3)
        try game.run(.substitute(team: .away, playerOut: a[0], playerIn: a[5]), at: 4)
        try game.move(h[5], .freeThrow, at: 5)
        func pm(_ player: PlayerID) -> Int? { game.stats(for: player, at: at(9))?.plusMinus }
        #expect(pm(h[0]) == 3)
        #expect(pm(h[5]) == -2 + 1)
        #expect(pm(h[1]) == 3 - 2 + 1)
        #expect(pm(a[0]) == -3 + 2)
        #expect(pm(a[5]) == -1)
        #expect(pm(h[6]) == 0)
        // Correcting the first basket into a two changes the plus-minus of those on court then.
        try game.run(.editPlay(play: 1, player: h[1], move: .twoPoints), at: 6)
        #expect(pm(h[0]) == 2)
        #expect(pm(a[0]) == 0)
        try game.run(.undo, at: 7)
        #expect(pm(h[5]) == -2)
        #expect(try game.rebuilt() == game)
    }

    @Test("starters given at creation start on court; invalid starters are refused")
    func starters() throws {
        let names = (1...8).map { "P\($0)" }
        let setup = try GameSetup(
            id: "s", homeTeam: "A", homeRoster: names.map { RosterEntry(name: $0) }, awayTeam: "B",
            awayRoster: names.map { RosterEntry(name: $0) }, rules: .fiba5x5, homeStarters: [3, 4, 5, 6, 7])
        let game = Game(setup: setup)
        #expect(game.onCourt.home == Set([3, 4, 5, 6, 7].map { h[$0] }))
        #expect(game.onCourt.away == Set((0...4).map { a[$0] }))
        #expect(game.isOnCourt(h[7]) && !game.isOnCourt(h[0]))
        for starters in [[0, 1, 2, 3], [0, 1, 2, 3, 3], [0, 1, 2, 3, 8]] {
            #expect(throws: GameSetupError.invalidStarters(.away, starters)) {
                try GameSetup(
                    id: "s", homeTeam: "A", homeRoster: names.map { RosterEntry(name: $0) }, awayTeam: "B",
                    awayRoster: names.map { RosterEntry(name: $0) }, rules: .fiba5x5, awayStarters: starters)
            }
        }
    }
}
