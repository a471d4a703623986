import CourtsideModel
import Foundation
import Testing

@Suite("The table crew: roles, members in the log, review")
struct CrewTests {
    static let digest = String(repeating: "ab", count: 32)

    /// One action of every command type (and both kinds of move for the stats role's rule).
    static let actions: [GameCommand.Action] = [
        .move(player: homeAce, move: .twoPoints), .move(player: homeAce, move: .freeThrow),
        .move(player: homeAce, move: .foul), .move(player: homeAce, move: .technicalFoul),
        .move(player: homeAce, move: .twoPointsMissed), .move(player: homeAce, move: .freeThrowMissed),
        .move(player: homeAce, move: .defensiveRebound), .move(player: homeAce, move: .assist),
        .move(player: homeAce, move: .steal), .move(player: homeAce, move: .block),
        .move(player: homeAce, move: .turnover), .teamMove(team: .home, move: .rebound),
        .teamMove(team: .home, move: .turnover), .teamMove(team: .home, move: .coachTechnical), .clock(.start),
        .clock(.pause), .undo, .timeout(.home), .shotClock(.reset(ms: nil)), .possession(.away),
        .setClock(elapsedMs: 1_000), .substitute(team: .home, playerOut: homeAce, playerIn: homeTwo),
        .editPlay(play: 1, player: homeAce, move: .onePoint), .deletePlay(play: 1), .final, .endPeriod,
        .review(.start), .resolve(play: 1, keep: .first),
    ]

    /// The wire types each role may send (moves are judged separately, by what they score).
    static func expected(_ role: CrewRole, _ action: GameCommand.Action) -> Bool {
        switch role {
        case .scorer: return true
        case .clock:
            return ["clock", "setClock", "endPeriod", "shotClock", "timeout", "possession"].contains(action.typeName)
        case .shotClock: return action.typeName == "shotClock"
        case .judge: return action.typeName == "review"
        case .stats:
            switch action {
            case .move(_, let move):
                return [
                    .twoPointsMissed, .freeThrowMissed, .defensiveRebound, .assist, .steal, .block, .turnover,
                ].contains(move)
            case .teamMove(_, let move): return move == .rebound || move == .turnover
            default: return false
            }
        }
    }

    @Test("each role allows exactly the commands the protocol lists", arguments: CrewRole.allCases)
    func roleTable(role: CrewRole) {
        for action in Self.actions {
            #expect(role.allows(action) == Self.expected(role, action), "\(role) \(action)")
        }
    }

    @Test(
        "a command outside the member's role is refused with not_allowed_for_role and changes nothing",
        arguments: CrewRole.allCases)
    func refusedOutsideRole(role: CrewRole) throws {
        var game = makeGame(.fiba3x3)
        try game.addCrewMember(role: role, label: "Table", tokenSHA256: Self.digest, at: at(0))
        try game.move(homeAce, .onePoint, at: 10)
        for (index, action) in Self.actions.enumerated() where !Self.expected(role, action) {
            let before = game
            #expect(throws: GameError.notAllowedForRole(role, command: action.typeName)) {
                try game.apply(GameCommand(id: CommandID("r\(index)"), action: action), by: "m1", at: at(20))
            }
            #expect(game == before)
            #expect(GameError.notAllowedForRole(role, command: action.typeName).code.rawValue == "not_allowed_for_role")
        }
    }

    @Test("an allowed command is recorded with the member who sent it, and replays to the same game")
    func memberCommandsReplay() throws {
        var game = makeGame(.fiba3x3)
        try game.addCrewMember(role: .clock, label: "Timer", tokenSHA256: Self.digest, at: at(0))
        try game.addCrewMember(role: .stats, label: "Stats", tokenSHA256: Self.digest, at: at(1))
        #expect(game.activeCrew.map(\.id) == ["m1", "m2"])
        let start = try game.apply(.startClock(id: "c1"), by: "m1", at: at(100))
        #expect(start.event.member == "m1")
        let miss = try game.apply(.move(homeAce, .onePointMissed, id: "c2"), by: "m2", at: at(200))
        #expect(miss.event.member == "m2")
        let basket = try game.apply(.move(homeAce, .onePoint, id: "c3"), at: at(300))
        #expect(basket.event.member == nil)
        #expect(game.plays.map(\.enteredBy) == ["m2", nil])
        #expect(game.lastCommandAt == ["m1": at(100), "m2": at(200)])
        try game.revokeCrewMember("m1", at: at(400))
        #expect(game.activeCrew.map(\.id) == ["m2"])
        #expect(try game.rebuilt() == game)
        // Through the journal's JSON too.
        let data = try JSONEncoder().encode(game.events)
        let decoded = try JSONDecoder().decode([GameEvent].self, from: data)
        #expect(decoded == game.events)
        #expect(try Game(setup: game.setup, replaying: decoded) == game)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"by\":\"m2\""))
        #expect(text.contains("\"type\":\"crewMemberRevoked\""))
    }

    @Test("a revoked member's commands are refused with member_revoked; ids are never reused")
    func revocation() throws {
        var game = makeGame()
        try game.addCrewMember(role: .scorer, label: "Second", tokenSHA256: Self.digest, at: at(0))
        try game.apply(.move(homeAce, .onePoint, id: "c1"), by: "m1", at: at(10))
        try game.revokeCrewMember("m1", at: at(20))
        let before = game
        #expect(throws: GameError.memberRevoked("m1")) {
            try game.apply(.move(homeAce, .onePoint, id: "c2"), by: "m1", at: at(30))
        }
        #expect(game == before)
        #expect(throws: GameError.unknownMember("m1")) { try game.revokeCrewMember("m1", at: at(40)) }
        #expect(throws: GameError.unknownMember("m7")) {
            try game.apply(.undo(id: "c3"), by: "m7", at: at(40))
        }
        try game.addCrewMember(role: .clock, label: "Timer", tokenSHA256: Self.digest, at: at(50))
        #expect(game.activeCrew.map(\.id) == ["m2"])
        #expect(game.score.home == 1)
    }

    @Test("a game records at most maxPerGame members, and labels of 1 to 40 characters")
    func limits() throws {
        var game = makeGame()
        #expect(throws: GameError.invalidCrewLabel) {
            try game.addCrewMember(role: .judge, label: "", tokenSHA256: Self.digest, at: at(0))
        }
        #expect(throws: GameError.invalidCrewLabel) {
            try game.addCrewMember(
                role: .judge, label: String(repeating: "x", count: 41), tokenSHA256: Self.digest, at: at(0))
        }
        for index in 1...CrewMember.maxPerGame {
            try game.addCrewMember(role: .judge, label: "J\(index)", tokenSHA256: Self.digest, at: at(0))
            if index % 2 == 0 { try game.revokeCrewMember(CrewMemberID(number: index), at: at(0)) }
        }
        #expect(throws: GameError.crewFull(limit: CrewMember.maxPerGame)) {
            try game.addCrewMember(role: .judge, label: "One more", tokenSHA256: Self.digest, at: at(0))
        }
        #expect(try game.rebuilt() == game)
    }

    @Test("a review stops the clocks, keeps the clock from starting until it ends, and replays")
    func review() throws {
        var game = makeGame(.fiba3x3)
        try game.addCrewMember(role: .judge, label: "Referee", tokenSHA256: Self.digest, at: at(0))
        try game.run(.clock(.start), at: 0)
        try game.apply(GameCommand(id: "r1", action: .review(.start)), by: "m1", at: at(5_000))
        #expect(game.isUnderReview)
        #expect(!game.isClockRunning)
        #expect(game.elapsedMs(at: at(9_000)) == 5_000)
        #expect(throws: GameError.underReview) { try game.run(.clock(.start), at: 6_000) }
        #expect(throws: GameError.underReview) { try game.run(.review(.start), at: 6_000) }
        #expect(throws: GameError.notAllowedForRole(.judge, command: "clock")) {
            try game.apply(.startClock(id: "r2"), by: "m1", at: at(6_000))
        }
        try game.run(.review(.end), at: 7_000)
        #expect(!game.isUnderReview)
        #expect(throws: GameError.notUnderReview) { try game.run(.review(.end), at: 7_500) }
        try game.run(.clock(.start), at: 8_000)
        #expect(game.isClockRunning)
        #expect(try game.rebuilt() == game)
    }

    @Test("a replayed command outside its member's role is refused by the replay")
    func replayChecksRoles() throws {
        var game = makeGame()
        try game.addCrewMember(role: .shotClock, label: "24", tokenSHA256: Self.digest, at: at(0))
        let forged = GameEvent(
            sequence: 2, at: at(10), commandID: "c1", kind: .move(player: homeAce, move: .onePoint), by: "m1")
        #expect(throws: GameReplayError.self) { try Game(setup: game.setup, replaying: game.events + [forged]) }
    }
}
