import CourtsideModel
import Foundation
import Testing

@Suite("Random command sequences")
struct RandomReplayTests {
    static let sequencesPerSeed = 750
    static let maxCommandsPerSequence = 60

    @Test(
        "thousands of random command sequences rebuild to equal games and keep the invariants",
        arguments: [1, 2, 3, 0xC0FFEE] as [UInt64])
    func randomSequences(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var coverage = Coverage()
        for sequenceIndex in 0..<Self.sequencesPerSeed {
            let game = try Self.randomGame(&rng, coverage: &coverage)
            let rebuilt = try game.rebuilt()
            guard rebuilt == game else {
                Issue.record("seed \(seed), sequence \(sequenceIndex): rebuilt game differs")
                return
            }
            if sequenceIndex % 25 == 0 {
                let decoded = try JSONDecoder().decode([GameEvent].self, from: JSONEncoder().encode(game.events))
                #expect(try Game(setup: game.setup, replaying: decoded) == game)
            }
        }
        // The generator must reach the interesting states, or the property proves little.
        #expect(coverage.finished > 50)
        #expect(coverage.timeLimits > 50)
        #expect(coverage.overtimes > 10)
        #expect(coverage.reopenedByUndo > 10)
        #expect(coverage.duplicates > 50)
        #expect(coverage.refusals > 50)
    }

    /// How often the random sequences reached the states worth testing.
    struct Coverage {
        var finished = 0
        var timeLimits = 0
        var overtimes = 0
        var reopenedByUndo = 0
        var duplicates = 0
        var refusals = 0
    }

    /// Plays one random sequence, checking after each step that a replica fed the new events stays equal,
    /// that refusals change nothing, and the invariants.
    static func randomGame(_ rng: inout SeededGenerator, coverage: inout Coverage) throws -> Game {
        var game = makeGame(try randomRules(&rng))
        var replica = Game(setup: game.setup)
        var now = Int64.random(in: 0...1_000, using: &rng)
        var usedIDs: [CommandID] = []
        for step in 0..<Int.random(in: 1...maxCommandsPerSequence, using: &rng) {
            // Mostly forward, sometimes a long jump past a time limit, sometimes a clock stepping back.
            now += [Int64.random(in: -300...0, using: &rng), Int64.random(in: 0...4_000, using: &rng), 30_000]
                .randomElement(using: &rng)!
            if Int.random(in: 0..<10, using: &rng) == 0 {
                if let event = game.advance(to: at(now)) {
                    try replica.replay(event)
                }
            } else {
                let reuse = !usedIDs.isEmpty && Int.random(in: 0..<10, using: &rng) == 0
                let id = reuse ? usedIDs.randomElement(using: &rng)! : CommandID("r\(step)")
                let command = GameCommand(id: id, action: randomAction(&rng))
                let before = game
                do {
                    let outcome = try game.apply(command, at: at(now))
                    if outcome.isDuplicate {
                        coverage.duplicates += 1
                        try expect(game == before, "a duplicate changed the game")
                    }
                    if before.isFinished && !game.isFinished { coverage.reopenedByUndo += 1 }
                    try expect(Array(game.events.suffix(outcome.newEvents.count)) == outcome.newEvents, "new events")
                    for event in outcome.newEvents {
                        try replica.replay(event)
                    }
                    usedIDs.append(id)
                } catch {
                    coverage.refusals += 1
                    try expect(game == before, "refused \(command) changed the game: \(error)")
                }
            }
            try expect(replica == game, "replica differs after step \(step)")
            try checkInvariants(game, now: now)
        }
        if game.isFinished { coverage.finished += 1 }
        if game.scoreAtTimeLimit != nil { coverage.timeLimits += 1 }
        if game.isOvertime || (game.scoreAtTimeLimit.map { $0.home == $0.away } ?? false) { coverage.overtimes += 1 }
        return game
    }

    static func randomRules(_ rng: inout SeededGenerator) throws -> Rules {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return .pickup
        case 1: return .fiba3x3
        default:
            return try .custom(
                targetScore: Int.random(in: 1...9, using: &rng), winBy: Int.random(in: 1...3, using: &rng),
                timeLimitMs: [nil, 5_000, 40_000].randomElement(using: &rng)!)
        }
    }

    static func randomAction(_ rng: inout SeededGenerator) -> GameCommand.Action {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<55:
            let side = TeamSide.allCases.randomElement(using: &rng)!
            // One move in twenty names a player the game does not have; half the moves score.
            let index = Int.random(in: 0..<20, using: &rng) == 0 ? 3 : Int.random(in: 0..<3, using: &rng)
            let move: PlayerMove =
                Bool.random(using: &rng)
                ? [.onePoint, .twoPoints].randomElement(using: &rng)!
                : [.assist, .rebound, .foul].randomElement(using: &rng)!
            return .move(player: PlayerID(side: side, index: index), move: move)
        case 55..<70: return .clock(.start)
        case 70..<82: return .clock(.pause)
        default: return .undo
        }
    }

    static func checkInvariants(_ game: Game, now: Int64) throws {
        for side in TeamSide.allCases {
            let points = game.team(side).players.reduce(0) { $0 + (game.moveCounts(for: $1.id)?.points ?? 0) }
            try expect(points == game.score(for: side), "score equals the players' points")
        }
        try expect(
            game.winner == game.rules.winner(score: game.score, scoreAtTimeLimit: game.scoreAtTimeLimit), "winner")
        try expect(!game.isFinished || game.isPaused, "a finished game's clock is stopped")
        try expect(
            game.events.enumerated().allSatisfy { $0.element.sequence == $0.offset + 1 }, "contiguous sequences")
        try expect(zip(game.events, game.events.dropFirst()).allSatisfy { $0.at <= $1.at }, "ordered times")
        if let limit = game.rules.timeLimitMs, game.scoreAtTimeLimit == nil {
            try expect(game.elapsedMs(at: at(now)) <= limit, "elapsed within the limit")
        }
        try expect(game.elapsedMs(at: at(now)) >= 0, "elapsed is never negative")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Throws (so the sequence stops at the first failure) instead of recording thousands of issues.
    static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition {
            Issue.record(Comment(rawValue: message()))
            throw Failure(description: message())
        }
    }
}
