import CourtsideModel
import CourtsideTestSupport
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
        let coverage = try Self.playSequences(seed: seed, count: Self.sequencesPerSeed, dual: false)
        // The generator must reach the interesting states, or the property proves little.
        #expect(coverage.finished > 50)
        #expect(coverage.timeLimits > 50)
        #expect(coverage.overtimes > 10)
        #expect(coverage.reopenedByUndo > 10)
        #expect(coverage.duplicates > 30)
        #expect(coverage.refusals > 50)
        #expect(coverage.corrections > 50)
        #expect(coverage.periods > 20)
        #expect(coverage.reopened > 5)
        #expect(coverage.teamMoves > 50)
        #expect(coverage.periodsEndedByHand > 20)
        #expect(coverage.notEligible > 5)
        #expect(coverage.memberCommands > 100)
        #expect(coverage.roleRefusals > 50)
        #expect(coverage.revokedRefusals > 5)
        #expect(coverage.revocations > 20)
        #expect(coverage.reviews > 20)
    }

    @Test(
        "with two scorers confirming each other, random sequences rebuild to equal games and confirmed points are the score",
        arguments: [5, 6] as [UInt64])
    func randomDualSequences(seed: UInt64) throws {
        let coverage = try Self.playSequences(seed: seed, count: 300, dual: true)
        #expect(coverage.confirmations > 100)
        #expect(coverage.conflicts > 50)
        #expect(coverage.expiries > 20)
        #expect(coverage.resolutions > 20)
        #expect(coverage.memberCommands > 100)
    }

    /// Plays `count` random sequences from `seed`, checking that each rebuilds (some through JSON) to an equal game,
    /// and returns how often they reached the states worth testing.
    static func playSequences(seed: UInt64, count: Int, dual: Bool) throws -> Coverage {
        var rng = SeededGenerator(seed: seed)
        var coverage = Coverage()
        for sequenceIndex in 0..<count {
            let game = try randomGame(&rng, coverage: &coverage, dual: dual)
            let rebuilt = try game.rebuilt()
            guard rebuilt == game else {
                Issue.record("seed \(seed), sequence \(sequenceIndex): rebuilt game differs")
                return coverage
            }
            if sequenceIndex % 25 == 0 {
                let decoded = try JSONDecoder().decode([GameEvent].self, from: JSONEncoder().encode(game.events))
                #expect(try Game(setup: game.setup, replaying: decoded) == game)
            }
        }
        return coverage
    }

    /// How often the random sequences reached the states worth testing.
    struct Coverage {
        var finished = 0
        var timeLimits = 0
        var overtimes = 0
        var reopenedByUndo = 0
        var duplicates = 0
        var refusals = 0
        var corrections = 0
        var periods = 0
        var reopened = 0
        var teamMoves = 0
        var periodsEndedByHand = 0
        var notEligible = 0
        var memberCommands = 0
        var roleRefusals = 0
        var revokedRefusals = 0
        var revocations = 0
        var reviews = 0
        var confirmations = 0
        var conflicts = 0
        var expiries = 0
        var resolutions = 0
    }

    /// Plays one random sequence, checking after each step that a replica fed the new events stays equal,
    /// that refusals change nothing, and the invariants.
    /// With `dual`, the rules have two scorers confirm each other, the crew's first member is a second scorer, and
    /// the commands include answers to pending plays and resolutions.
    static func randomGame(_ rng: inout SeededGenerator, coverage: inout Coverage, dual: Bool = false) throws -> Game {
        let names = ["A", "B", "C", "D", "E", "F"]
        var rules = try randomRules(&rng)
        if dual { rules = try rules.confirmedByTwoScorers(windowMs: Int64.random(in: 1_000...6_000, using: &rng)) }
        var game = Game(
            setup: try GameSetup(
                id: "g1", homeTeam: "Hawks", homePlayers: names, awayTeam: "Owls", awayPlayers: names,
                rules: rules))
        var replica = Game(setup: game.setup)
        var now = Int64.random(in: 0...1_000, using: &rng)
        var usedIDs: [CommandID] = []
        // A table crew of up to four members with random roles, from the game's own log like any event.
        for index in 0..<Int.random(in: dual ? 1...4 : 0...4, using: &rng) {
            let role = dual && index == 0 ? .scorer : CrewRole.allCases.randomElement(using: &rng)!
            let outcome = try game.addCrewMember(
                role: role, label: role.rawValue, tokenSHA256: String(repeating: "0", count: 64), at: at(now))
            try replica.replay(outcome.event)
        }
        for step in 0..<Int.random(in: 1...maxCommandsPerSequence, using: &rng) {
            // Mostly forward, sometimes a long jump past a time limit, sometimes a clock stepping back.
            now += [
                Int64.random(in: -300...0, using: &rng), Int64.random(in: 0...4_000, using: &rng), 30_000, 700_000,
            ].randomElement(using: &rng)!
            if Int.random(in: 0..<10, using: &rng) == 0 {
                for event in dual ? game.catchUp(to: at(now)) : game.advance(to: at(now)).map({ [$0] }) ?? [] {
                    try replica.replay(event)
                }
            } else if !game.activeCrew.isEmpty, Int.random(in: 0..<40, using: &rng) == 0 {
                let member = game.activeCrew.randomElement(using: &rng)!.id
                for event in try game.revokeCrewMember(member, at: at(now)).newEvents { try replica.replay(event) }
                coverage.revocations += 1
            } else if game.isLocked, Int.random(in: 0..<3, using: &rng) == 0 {
                try replica.replay(try game.reopen(at: at(now)))
                coverage.reopened += 1
            } else {
                let reuse = !usedIDs.isEmpty && Int.random(in: 0..<10, using: &rng) == 0
                let id = reuse ? usedIDs.randomElement(using: &rng)! : CommandID("r\(step)")
                var command = GameCommand(id: id, action: randomAction(&rng, dual: dual))
                // Half the commands come from a crew member (revoked ones included), the others from the scorer
                // token.
                var issuer = Bool.random(using: &rng) ? game.crew.randomElement(using: &rng)?.id : nil
                if dual, let pending = game.pendingPlays.randomElement(using: &rng), Bool.random(using: &rng) {
                    // The other scorer answers a pending play: mostly the same entry, sometimes another player.
                    let player =
                        Int.random(in: 0..<4, using: &rng) == 0
                        ? PlayerID(side: pending.team, index: 1)
                        : pending.player
                    command = GameCommand(id: id, action: .move(player: player, move: pending.move))
                    issuer = pending.enteredBy == nil ? game.crew[0].id : nil
                }
                let conflictsBefore = game.conflicts.count
                let before = game
                do {
                    let outcome = try game.apply(command, by: issuer, at: at(now))
                    if issuer != nil, !outcome.isDuplicate { coverage.memberCommands += 1 }
                    if case .review = command.action, !outcome.isDuplicate { coverage.reviews += 1 }
                    if !outcome.isDuplicate {
                        if case .resolve = command.action { coverage.resolutions += 1 }
                        coverage.expiries += outcome.newEvents.filter { $0.isExpiry }.count
                        if game.conflicts.count > conflictsBefore { coverage.conflicts += 1 }
                    }
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
                    switch command.action {
                    case .editPlay, .deletePlay, .setClock: coverage.corrections += outcome.isDuplicate ? 0 : 1
                    case .teamMove: coverage.teamMoves += 1
                    case .endPeriod: coverage.periodsEndedByHand += 1
                    default: break
                    }
                } catch {
                    coverage.refusals += 1
                    switch error as? GameError {
                    case .playerNotEligible?: coverage.notEligible += 1
                    case .notAllowedForRole?: coverage.roleRefusals += 1
                    case .memberRevoked?: coverage.revokedRefusals += 1
                    default: break
                    }
                    try expect(game == before, "refused \(command) changed the game: \(error)")
                }
            }
            try expect(replica == game, "replica differs after step \(step)")
            try checkInvariants(game, now: now)
        }
        coverage.confirmations +=
            game.plays.filter {
                if case .confirmed = $0.check { return true }
                return false
            }.count
        if game.isFinished { coverage.finished += 1 }
        if game.period > 2 { coverage.periods += 1 }
        if game.scoreAtTimeLimit != nil { coverage.timeLimits += 1 }
        if game.isOvertime || (game.scoreAtTimeLimit.map { $0.home == $0.away } ?? false) { coverage.overtimes += 1 }
        return game
    }

    static func randomRules(_ rng: inout SeededGenerator) throws -> Rules {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return .pickup
        case 1: return .fiba3x3
        case 2: return .fiba5x5
        default:
            return try .custom(
                targetScore: Int.random(in: 1...9, using: &rng), winBy: Int.random(in: 1...3, using: &rng),
                timeLimitMs: [nil, 5_000, 40_000].randomElement(using: &rng)!)
        }
    }

    static func randomAction(_ rng: inout SeededGenerator, dual: Bool = false) -> GameCommand.Action {
        if dual, Int.random(in: 0..<8, using: &rng) == 0 {
            return .resolve(
                play: Int.random(in: 1...8, using: &rng), keep: ConflictResolution.allCases.randomElement(using: &rng)!)
        }
        let side = TeamSide.allCases.randomElement(using: &rng)!
        // One player in twenty is one the game does not have (rosters here have 3 or 6 players).
        let player = PlayerID(
            side: side, index: Int.random(in: 0..<20, using: &rng) == 0 ? 6 : Int.random(in: 0..<6, using: &rng))
        // Half the moves score (a three or a one-point field goal is refused by some rules); the others are every
        // other move, fouls of every kind included.
        let move: PlayerMove =
            Bool.random(using: &rng)
            ? [.onePoint, .twoPoints, .threePoints, .freeThrow].randomElement(using: &rng)!
            : PlayerMove.allCases.filter { $0.points == 0 }.randomElement(using: &rng)!
        switch Int.random(in: 0..<110, using: &rng) {
        case 0..<45: return .move(player: player, move: move)
        case 45..<57: return .clock(.start)
        case 57..<66: return .clock(.pause)
        case 66..<72: return .undo
        case 72..<75: return .timeout(side)
        case 75..<80:
            let ms = Int64.random(in: -1_000...25_000, using: &rng)
            let actions: [ShotClockAction] = [
                .start, .pause, .reset(ms: nil), .reset(ms: ms), .set(ms: ms), .enable, .disable,
            ]
            return .shotClock(actions.randomElement(using: &rng)!)
        case 80..<83: return .possession(side)
        case 83..<86: return .setClock(elapsedMs: Int64.random(in: -1_000...700_000, using: &rng))
        case 86..<89:
            let other = PlayerID(side: side, index: Int.random(in: 0..<7, using: &rng))
            return .substitute(team: side, playerOut: player, playerIn: other)
        case 89..<94: return .editPlay(play: Int.random(in: 0...12, using: &rng), player: player, move: move)
        case 94..<98: return .deletePlay(play: Int.random(in: 0...12, using: &rng))
        case 98..<100: return .final
        case 100..<104: return .teamMove(team: side, move: TeamMove.allCases.randomElement(using: &rng)!)
        case 104..<108: return .review(ReviewAction.allCases.randomElement(using: &rng)!)
        default: return .endPeriod
        }
    }

    static func checkInvariants(_ game: Game, now: Int64) throws {
        for side in TeamSide.allCases {
            let points = game.team(side).players.reduce(0) { $0 + (game.moveCounts(for: $1.id)?.points ?? 0) }
            try expect(points == game.score(for: side), "score equals the players' points")
        }
        if game.rules.periodCount == 1 {
            try expect(
                game.winner == game.rules.winner(score: game.score, scoreAtTimeLimit: game.scoreAtTimeLimit),
                "winner")
        }
        try expect(!game.isFinished || game.isPaused, "a finished game's clock is stopped")
        try expect(!game.isLocked || game.isPaused, "a locked game's clock is stopped")
        try expect(!game.isUnderReview || game.isPaused, "the clock does not run during a review")
        // Confirmed points equal the score: pending and conflicting plays count nothing.
        let livePlays = game.plays.filter(\.isCounted)
        for side in TeamSide.allCases {
            let points = livePlays.filter { $0.team == side }.reduce(0) { $0 + $1.move.points }
            try expect(points == game.score(for: side), "score equals the live plays' points")
        }
        if let foulRules = game.rules.teamFouls {
            for side in TeamSide.allCases {
                let fouls = livePlays.filter {
                    $0.team == side && $0.move.isPlayerFoul
                        && (!foulRules.resetsEachPeriod
                            || min($0.period, game.rules.periodCount) == min(game.period, game.rules.periodCount))
                }
                try expect(fouls.count == game.teamFouls[side], "team fouls equal the live fouls of the window")
            }
        }
        for side in TeamSide.allCases {
            // The box score's points are the score; so are the periods' points.
            let stats = game.teamStats(side, at: at(now))
            try expect(stats.players.points == game.score(for: side), "box score points equal the score")
            try expect(
                game.periodScores.reduce(0) { $0 + $1[side] } == game.score(for: side), "period scores add up")
            // Everybody on court has the same plus-minus change per basket: the team's sum is the lineup's size
            // times the score difference.
            let lineup = game.rules.roster.onCourt ?? game.team(side).players.count
            let difference = game.score(for: side) - game.score(for: side.opponent)
            try expect(stats.players.plusMinus == lineup * difference, "plus-minus sums to the lineup × the margin")
            try expect(
                game.team(side).players.filter { game.isOnCourt($0.id) }.count == lineup, "the lineup is on court")
        }
        if let onCourt = game.rules.roster.onCourt {
            try expect(game.onCourt.home.count == onCourt && game.onCourt.away.count == onCourt, "five on court")
        }
        try expect(game.timeoutsLeft.home >= 0 && game.timeoutsLeft.away >= 0, "timeouts never negative")
        try expect(
            game.events.enumerated().allSatisfy { $0.element.sequence == $0.offset + 1 }, "contiguous sequences")
        try expect(zip(game.events, game.events.dropFirst()).allSatisfy { $0.at <= $1.at }, "ordered times")
        if let limit = game.periodLengthMs, game.period > game.lastEndedPeriod {
            try expect(game.elapsedMs(at: at(now)) <= limit, "elapsed within the period")
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

extension GameEvent {
    /// Whether the event closed a window to confirm a play.
    fileprivate var isExpiry: Bool {
        if case .confirmationExpired = kind { return true }
        return false
    }
}
