import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport

/// A game played by random commands through the model, with the batches a server would journal: one batch per
/// command outcome (or time-limit event), each shown by one patch message whose presentation sequence it carries.
struct PlayedGame {
    var game: Game
    var batches: [[JournaledEvent]]

    var journaledEvents: [JournaledEvent] { batches.flatMap { $0 } }

    static func random(id: GameID, using rng: inout SeededGenerator, maxCommands: Int = 40) -> PlayedGame {
        let rules: [Rules] = [.pickup, .fiba3x3, try! .custom(targetScore: 5, winBy: 1, timeLimitMs: 20_000)]
        var game = Game(setup: makeSetup(id, rules: rules.randomElement(using: &rng)!))
        var batches: [[JournaledEvent]] = []
        // Presentation sequences: the snapshot is message 0; some messages show no new event (a name change, a
        // resync), so the numbers jump now and then.
        var presentation = 0
        var now: Int64 = 0
        for step in 0..<Int.random(in: 1...maxCommands, using: &rng) {
            now += Int64.random(in: 0...3_000, using: &rng)
            presentation += Int.random(in: 0..<5, using: &rng) == 0 ? 2 : 1
            var newEvents: [GameEvent] = []
            if Int.random(in: 0..<10, using: &rng) == 0 {
                newEvents = game.advance(to: at(now)).map { [$0] } ?? []
            } else {
                let command = GameCommand(id: CommandID("\(id)-c\(step)"), action: randomAction(&rng))
                newEvents = (try? game.apply(command, at: at(now)))?.newEvents ?? []
            }
            if !newEvents.isEmpty {
                batches.append(newEvents.map { JournaledEvent($0, presentationSequence: presentation) })
            }
        }
        return PlayedGame(game: game, batches: batches)
    }

    private static func randomAction(_ rng: inout SeededGenerator) -> GameCommand.Action {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<6:
            let player = PlayerID(
                side: TeamSide.allCases.randomElement(using: &rng)!, index: Int.random(in: 0..<3, using: &rng))
            return .move(player: player, move: PlayerMove.allCases.randomElement(using: &rng)!)
        case 6: return .clock(.start)
        case 7: return .clock(.pause)
        default: return .undo
        }
    }
}
