import CourtsideModel
import Testing

func makeGame5x5(players: Int = 8) -> Game {
    let names = (1...players).map { "P\($0)" }
    return Game(
        setup: try! GameSetup(
            id: "g5", homeTeam: "Hawks", homePlayers: names, awayTeam: "Owls", awayPlayers: names, rules: .fiba5x5))
}

let quarter: Int64 = 600_000
let overtimeLength: Int64 = 300_000

@Suite("FIBA 5x5 rules: quarters, overtimes, team fouls per quarter, timeouts by half, substitutions")
struct Fiba5x5RulesTests {
    @Test("four 10:00 quarters: each end stops the clock and starts the next quarter at 0:00")
    func quarters() throws {
        var game = makeGame5x5()
        #expect(game.period == 1)
        var now: Int64 = 0
        for expected in 1...3 {
            try game.run(.clock(.start), at: now)
            #expect(game.timeLimitDeadline == at(now + quarter))
            let end = game.advance(to: at(now + quarter + 5_000))
            #expect(end?.kind == .timeLimitReached)
            #expect(end?.at == at(now + quarter))
            #expect(game.period == expected + 1)
            #expect(game.isPaused)
            #expect(game.elapsedMs(at: at(now + 2 * quarter)) == 0)
            now += quarter + 60_000
        }
        try game.move(PlayerID(side: .home, index: 0), .twoPoints, at: now)
        try game.run(.clock(.start), at: now)
        game.advance(to: at(now + quarter))
        #expect(game.winner == .home)
        #expect(game.period == 4)
        #expect(game.timeLimitDeadline == nil)
        #expect(try game.rebuilt() == game)
    }

    @Test("a tie after four quarters brings 5:00 overtimes until one ends with a leader")
    func overtimes() throws {
        var game = makeGame5x5()
        var now: Int64 = 0
        for _ in 1...4 {
            try game.run(.clock(.start), at: now)
            now += quarter
            game.advance(to: at(now))
        }
        #expect(game.period == 5)
        #expect(game.isOvertime)
        #expect(game.periodLengthMs == overtimeLength)
        try game.run(.clock(.start), at: now)
        now += overtimeLength
        game.advance(to: at(now))
        #expect(game.period == 6, "a tied overtime brings another")
        try game.move(PlayerID(side: .away, index: 1), .freeThrow, at: now)
        #expect(game.winner == nil, "a basket does not end a timed overtime")
        try game.run(.clock(.start), at: now)
        now += overtimeLength
        game.advance(to: at(now))
        #expect(game.winner == .away)
        #expect(try game.rebuilt() == game)
    }

    @Test("team fouls count per quarter from the 5th, and an overtime continues the 4th quarter's count")
    func teamFoulsPerQuarter() throws {
        var game = makeGame5x5()
        // Each player commits at most 4 fouls: the 5th would put them out (art. 40).
        let fouler = PlayerID(side: .home, index: 2)
        let other = PlayerID(side: .home, index: 3)
        for foul in 1...4 { try game.move(fouler, .foul, at: Int64(foul)) }
        try game.move(other, .foul, at: 5)
        #expect(game.isInPenalty(.home) == true)
        try game.run(.clock(.start), at: 10)
        game.advance(to: at(10 + quarter))
        #expect(game.period == 2)
        #expect(game.teamFouls == TeamPair(both: 0))
        #expect(game.isInPenalty(.home) == false)
        var now = 10 + quarter
        for _ in 2...4 {
            try game.run(.clock(.start), at: now)
            now += quarter
            game.advance(to: at(now))
        }
        #expect(game.period == 5)
        for index in 0...3 { try game.move(PlayerID(side: .home, index: index == 2 ? 4 : index), .foul, at: now) }
        #expect(game.teamFouls.home == 4)
        #expect(game.isInPenalty(.home) == false)
        try game.move(other, .foul, at: now)
        #expect(game.isInPenalty(.home) == true)
        #expect(try game.rebuilt() == game)
    }

    @Test("timeouts: 2 in the first half, 3 in the second (unused ones lost), 1 in each overtime")
    func timeoutsByHalf() throws {
        var game = makeGame5x5()
        #expect(game.timeoutsLeft == TeamPair(both: 2))
        try game.run(.timeout(.home), at: 0)
        try game.run(.timeout(.home), at: 1)
        #expect(throws: GameError.noTimeoutsLeft(.home)) { try game.run(.timeout(.home), at: 2) }
        var now: Int64 = 10
        for period in 1...4 {
            try game.run(.clock(.start), at: now)
            now += quarter
            game.advance(to: at(now))
            if period == 1 { #expect(game.timeoutsLeft == TeamPair(home: 0, away: 2)) }
            if period == 2 { #expect(game.timeoutsLeft == TeamPair(both: 3)) }
        }
        #expect(game.timeoutsLeft == TeamPair(both: 1))
    }

    @Test("the 24-second shot clock resets to 14 on demand and starts full in each quarter")
    func shotClock() throws {
        var game = makeGame5x5()
        try game.run(.clock(.start), at: 0)
        #expect(game.shotClock?.remainingMs(at: at(10_000)) == 14_000)
        try game.run(.shotClock(.reset(ms: 14_000)), at: 10_000)
        #expect(game.shotClock?.remainingMs(at: at(11_000)) == 13_000)
        #expect(throws: GameError.timeOutOfRange(25_000, allowed: 1...24_000)) {
            try game.run(.shotClock(.reset(ms: 25_000)), at: 11_000)
        }
        game.advance(to: at(quarter))
        #expect(game.shotClock?.remainingMs(at: at(quarter + 5)) == 24_000)
        #expect(game.shotClock?.isRunning == false)
    }

    @Test("five start on court; a substitution swaps one for a bench player of the same team")
    func substitutions() throws {
        var game = makeGame5x5()
        let starter = PlayerID(side: .home, index: 4)
        let bench = PlayerID(side: .home, index: 6)
        #expect(game.onCourt.home == Set((0..<5).map { PlayerID(side: .home, index: $0) }))
        try game.run(.substitute(team: .home, playerOut: starter, playerIn: bench))
        #expect(game.onCourt.home.contains(bench))
        #expect(!game.onCourt.home.contains(starter))
        #expect(game.onCourt.home.count == 5)
        #expect(throws: GameError.notOnCourt(starter)) {
            try game.run(.substitute(team: .home, playerOut: starter, playerIn: PlayerID(side: .home, index: 7)))
        }
        #expect(throws: GameError.alreadyOnCourt(bench)) {
            try game.run(.substitute(team: .home, playerOut: PlayerID(side: .home, index: 0), playerIn: bench))
        }
        #expect(throws: GameError.wrongTeam(PlayerID(side: .away, index: 7), team: .home)) {
            try game.run(.substitute(team: .home, playerOut: bench, playerIn: PlayerID(side: .away, index: 7)))
        }
        #expect(throws: GameError.unknownPlayer(PlayerID(side: .home, index: 9))) {
            try game.run(.substitute(team: .home, playerOut: bench, playerIn: PlayerID(side: .home, index: 9)))
        }
        #expect(try game.rebuilt() == game)
    }

    @Test("rosters: 5 to 12 players for 5x5, 3 to 12 otherwise, numbers of one or two digits worn once")
    func rosters() throws {
        #expect(throws: GameSetupError.wrongPlayerCount(.home, count: 4, allowed: 5...12)) {
            try GameSetup(
                id: "g", homeTeam: "A", homePlayers: ["a", "b", "c", "d"], awayTeam: "B",
                awayPlayers: ["a", "b", "c", "d", "e"], rules: .fiba5x5)
        }
        let twelve = try GameSetup(
            id: "g", homeTeam: "A", homeRoster: (0..<12).map { RosterEntry(name: "P\($0)", number: "\($0 * 7)") },
            awayTeam: "B", awayRoster: ["a", "b", "c"])
        #expect(twelve.homeTeam.players.count == 12)
        #expect(twelve.homeTeam.players[11].id == PlayerID(side: .home, index: 11))
        #expect(twelve.homeTeam.players[3].number == "21")
        #expect(twelve.awayTeam.players[0].number == nil)
        #expect(throws: GameSetupError.invalidPlayerNumber(.away, index: 1, number: "100")) {
            try GameSetup(
                id: "g", homeTeam: "A", homeRoster: ["a", "b", "c"], awayTeam: "B",
                awayRoster: ["a", RosterEntry(name: "b", number: "100"), "c"])
        }
        #expect(throws: GameSetupError.duplicatePlayerNumber(.home, index: 2, number: "7")) {
            try GameSetup(
                id: "g", homeTeam: "A",
                homeRoster: [RosterEntry(name: "a", number: "7"), "b", RosterEntry(name: "c", number: "7")],
                awayTeam: "B", awayRoster: ["a", "b", "c"])
        }
    }
}
