import CourtsideModel
import CourtsideRandom
import Testing

@testable import Courtside

private func demoGame() throws -> Game {
    Game(setup: try DemoTeams().setup(id: GameID(rawValue: "demo")))
}

/// A draw whose kind, move and player parts are the given numbers.
private func draw(kind: UInt64, move: UInt64 = 0, player: UInt64 = 0) -> UInt64 {
    kind | move << 16 | player << 32
}

private func apply(_ action: GameCommand.Action, to game: inout Game, number: Int) throws {
    _ = try game.apply(
        GameCommand(id: CommandID(rawValue: "c\(number)"), action: action),
        at: Timestamp(milliseconds: Int64(number) * 1000))
}

@Suite("Demo scorer decisions")
struct DemoScorerTests {
    @Test("a new game starts with the clock, whatever the draw")
    func startsTheClock() throws {
        let game = try demoGame()
        for kind: UInt64 in [0, 10, 50, 99] {
            #expect(DemoScorer.next(for: game, draw: draw(kind: kind)) == .command(.clock(.start)))
        }
    }

    @Test("on a running clock, a low draw pauses, the next band undoes, the rest are moves by the drawn player")
    func runningClock() throws {
        var game = try demoGame()
        try apply(.clock(.start), to: &game, number: 1)
        #expect(DemoScorer.next(for: game, draw: draw(kind: 0)) == .command(.clock(.pause)))
        // Nothing to undo yet: the undo band plays a move instead.
        let home1 = game.homeTeam.players[1].id
        #expect(
            DemoScorer.next(for: game, draw: draw(kind: 5, move: 0, player: 1))
                == .command(.move(player: home1, move: .twoPoints)))
        #expect(game.homeTeam.shortName != game.awayTeam.shortName, "the two demo teams are told apart")
        try apply(.move(player: home1, move: .twoPoints), to: &game, number: 2)
        #expect(DemoScorer.next(for: game, draw: draw(kind: 5)) == .command(.undo))
        let away2 = game.awayTeam.players[2].id
        #expect(
            DemoScorer.next(for: game, draw: draw(kind: 50, move: 99, player: 5))
                == .command(.move(player: away2, move: .rebound)))
    }

    @Test("the move bands follow their weights")
    func moveBands() {
        #expect(DemoScorer.move(for: 0) == .twoPoints)
        #expect(DemoScorer.move(for: 15) == .twoPoints)
        #expect(DemoScorer.move(for: 16) == .onePoint)
        #expect(DemoScorer.move(for: 28) == .twoPointsMissed)
        #expect(DemoScorer.move(for: 46) == .defensiveRebound)
        #expect(DemoScorer.move(for: 80) == .block)
        #expect(DemoScorer.move(for: 86) == .turnover)
        #expect(DemoScorer.move(for: 87) == .foul)
        #expect(DemoScorer.move(for: 99) == .rebound)
        // Every move is one the demo's rules take.
        #expect(DemoScorer.moveWeights.allSatisfy { DemoTeams().rules.allows($0.0) })
        #expect(DemoScorer.moveWeights.map(\.1).reduce(0, +) == 100)
    }

    @Test("on a paused clock after the start, it restarts the clock or records a free throw")
    func pausedClock() throws {
        var game = try demoGame()
        try apply(.clock(.start), to: &game, number: 1)
        try apply(.clock(.pause), to: &game, number: 2)
        let away0 = game.awayTeam.players[0].id
        #expect(
            DemoScorer.next(for: game, draw: draw(kind: 0, player: 3))
                == .command(.move(player: away0, move: .freeThrow)))
        #expect(
            DemoScorer.next(for: game, draw: draw(kind: 0, move: DemoScorer.freeThrowMadePercent, player: 3))
                == .command(.move(player: away0, move: .freeThrowMissed)))
        #expect(DemoScorer.next(for: game, draw: draw(kind: DemoScorer.freeThrowPercent)) == .command(.clock(.start)))
    }

    @Test("a finished game asks for the next one")
    func finished() throws {
        var game = try demoGame()
        let scorer = game.homeTeam.players[0].id
        for number in 1...8 { try apply(.move(player: scorer, move: .twoPoints), to: &game, number: number) }
        #expect(game.isFinished)
        #expect(DemoScorer.next(for: game, draw: 12345) == .gameOver)
    }

    @Test(
        "seeded games are always accepted by the model and reach a winner", arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func playsWholeGames(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var game = try demoGame()
        var seen: Set<String> = []
        var number = 0
        while number < 2000 {
            guard case .command(let action) = DemoScorer.next(for: game, draw: random.next()) else { break }
            number += 1
            switch action {
            case .move(_, let move): seen.insert(move.rawValue)
            case .clock(let clock): seen.insert(clock.rawValue)
            case .undo: seen.insert("undo")
            default: seen.insert(action.typeName)
            }
            try apply(action, to: &game, number: number)  // throws, failing the test, if the model refuses
        }
        #expect(game.isFinished)
        #expect(number > 10 && number < 2000)
        #expect(seen.isSuperset(of: ["start", "twoPoints", "onePoint", "twoPointsMissed", "defensiveRebound"]))
    }

    @Test("over many games it pauses, undoes and plays every move")
    func variety() throws {
        var random = SplitMix64(seed: 7)
        var seen: Set<String> = []
        for _ in 0..<10 {
            var game = try demoGame()
            var number = 0
            while case .command(let action) = DemoScorer.next(for: game, draw: random.next()), number < 2000 {
                number += 1
                switch action {
                case .move(_, let move): seen.insert(move.rawValue)
                case .clock(let clock): seen.insert(clock.rawValue)
                case .undo: seen.insert("undo")
                default: seen.insert(action.typeName)
                }
                try apply(action, to: &game, number: number)
            }
            #expect(game.isFinished)
        }
        let played = DemoScorer.moveWeights.map(\.0.rawValue) + ["freeThrow", "freeThrowMissed"]
        #expect(seen == Set(played + ["start", "pause", "undo"]))
    }

    @Test("commands are encoded in the wire format and replies decoded")
    func wire() {
        let move = GameCommand(
            id: CommandID(rawValue: "demo-1"), action: .move(player: PlayerID(rawValue: "home-0"), move: .onePoint))
        #expect(
            String(decoding: DemoWire.encode(move), as: UTF8.self)
                == #"{"id":"demo-1","move":"onePoint","player":"home-0","type":"move"}"#)
        #expect(
            String(decoding: DemoWire.encode(.startClock(id: CommandID(rawValue: "c"))), as: UTF8.self)
                == #"{"action":"start","id":"c","type":"clock"}"#)
        #expect(
            String(decoding: DemoWire.encode(.undo(id: CommandID(rawValue: "u"))), as: UTF8.self)
                == #"{"id":"u","type":"undo"}"#)
        #expect(DemoWire.decodeReply(Array(#"{"id":"c2","seq":2,"type":"ack","v":1}"#.utf8)) == .ack(sequence: 2))
        #expect(
            DemoWire.decodeReply(
                Array(#"{"code":"game_finished","id":"c","message":"over","type":"error","v":1}"#.utf8))
                == .error(code: "game_finished", message: "over"))
        #expect(DemoWire.decodeReply(Array("nope".utf8)) == .unreadable)
    }

    @Test("SplitMix64 is deterministic for a seed")
    func seeded() {
        var one = SplitMix64(seed: 99)
        var two = SplitMix64(seed: 99)
        var other = SplitMix64(seed: 100)
        let first = (0..<4).map { _ in one.next() }
        #expect(first == (0..<4).map { _ in two.next() })
        #expect(first != (0..<4).map { _ in other.next() })
    }
}
