import CourtsideModel
import Foundation
import Testing

@Suite("Two scorers who confirm each other")
struct DualConfirmationTests {
    static let digest = String(repeating: "cd", count: 32)
    static let window: Int64 = 8_000

    /// A pickup game with two scorers: the game's scorer token (nil) and crew member `m1` with the role `scorer`,
    /// plus `m2` (judge) and `m3` (stats).
    static func game(window: Int64 = window) throws -> Game {
        var game = makeGame(try Rules.pickup.confirmedByTwoScorers(windowMs: window))
        try game.addCrewMember(role: .scorer, label: "Check sheet", tokenSHA256: digest, at: at(0))
        try game.addCrewMember(role: .judge, label: "Referee", tokenSHA256: digest, at: at(0))
        try game.addCrewMember(role: .stats, label: "Stats", tokenSHA256: digest, at: at(0))
        return game
    }

    static let second: CrewMemberID = "m1"

    @Test("a scorer's scoring move is pending: in the plays, counting nothing, until the window ends")
    func pending() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.enter(homeAce, .foul, at: 1_500)
        #expect(game.score == ScoreLine())
        #expect(game.moveCount(for: homeAce, move: .twoPoints) == 0)
        #expect(game.moveCount(for: homeAce, move: .foul) == 0)
        #expect(game.plays.map(\.check) == [.pending(confirmBy: at(9_000)), .pending(confirmBy: at(9_500))])
        #expect(game.plays.allSatisfy { $0.isPending && !$0.isCounted })
        #expect(game.nextDeadline == at(9_000))
        #expect(try game.rebuilt() == game)
    }

    @Test("moves that score nothing and are not fouls, and team moves, count at once")
    func notChecked() throws {
        var game = try Self.game()
        try game.enter(homeAce, .assist, at: 1_000)
        try game.run(.teamMove(team: .home, move: .rebound), at: 1_100)
        try game.enter(homeAce, .defensiveRebound, by: "m3", at: 1_200)
        #expect(game.plays.allSatisfy { $0.check == nil && $0.isCounted })
        #expect(game.moveCount(for: homeAce, move: .assist) == 1)
        #expect(game.nextDeadline == nil)
    }

    @Test("the other scorer's same entry confirms the play: it counts, and says who confirmed it")
    func confirmed() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        let outcome = try game.enter(homeAce, .twoPoints, by: Self.second, at: 3_000)
        #expect(outcome.event.kind == .move(player: homeAce, move: .twoPoints))
        #expect(game.plays.count == 1)
        #expect(game.plays[0].check == .confirmed(by: Self.second))
        #expect(game.plays[0].enteredBy == nil)
        #expect(game.score.home == 2)
        #expect(game.moveCount(for: homeAce, move: .twoPoints) == 1)
        #expect(game.nextDeadline == nil)
        #expect(try game.rebuilt() == game)
    }

    @Test("an entry by the same scorer never confirms its own play: it waits behind it")
    func sameScorerQueues() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.enter(homeAce, .twoPoints, at: 1_200)
        #expect(game.plays.map(\.isPending) == [true, true])
        #expect(game.score.home == 0)
    }

    @Test("entries are matched in order per team: two quick baskets confirm one each, teams apart")
    func matchedInOrder() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.enter(awayAce, .onePoint, at: 1_100)
        try game.enter(homeTwo, .twoPoints, at: 1_200)
        // The second scorer enters the away basket first, then the two home baskets in order.
        try game.enter(awayAce, .onePoint, by: Self.second, at: 2_000)
        #expect(game.plays.map(\.isCounted) == [false, true, false])
        try game.enter(homeAce, .twoPoints, by: Self.second, at: 2_100)
        try game.enter(homeTwo, .twoPoints, by: Self.second, at: 2_200)
        #expect(game.plays.map(\.check) == Array(repeating: .confirmed(by: Self.second), count: 3))
        #expect(game.score == ScoreLine(home: 4, away: 1))
        #expect(game.conflicts.isEmpty)
        #expect(try game.rebuilt() == game)
    }

    @Test("an entry of the second scorer with nothing to answer is a new pending play the first confirms")
    func secondScorerFirst() throws {
        var game = try Self.game()
        try game.enter(awayAce, .twoPoints, by: Self.second, at: 1_000)
        #expect(game.plays[0].isPending && game.plays[0].enteredBy == Self.second)
        try game.enter(awayAce, .twoPoints, at: 1_500)
        #expect(game.plays[0].check == .confirmed(by: nil))
        #expect(game.score.away == 2)
    }

    @Test("a different player is a conflict holding both entries; nothing counts")
    func conflictPlayer() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.enter(homeTwo, .twoPoints, by: Self.second, at: 2_000)
        let entry = PlayEntry(team: .home, player: homeTwo, move: .twoPoints, by: Self.second, sequence: 5)
        #expect(game.plays.count == 1)
        #expect(game.plays[0].check == .conflict(second: entry))
        #expect(game.conflicts.map(\.number) == [1])
        #expect(game.score == ScoreLine())
        #expect(game.nextDeadline == nil)
        #expect(try game.rebuilt() == game)
    }

    @Test("a different move or value is a conflict")
    func conflictMove() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.enter(homeAce, .onePoint, by: Self.second, at: 2_000)
        #expect(game.plays[0].hasConflict)
        #expect(game.score == ScoreLine())
    }

    @Test("a window that closes with no answer is a conflict with no second entry, at its exact instant")
    func conflictExpired() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        let early = game.advance(to: at(8_999))
        #expect(early == nil)
        let closed = game.advance(to: at(9_700))
        let expired = try #require(closed)
        #expect(expired.kind == .confirmationExpired(play: 1))
        #expect(expired.at == at(9_000))
        #expect(expired.commandID == nil)
        #expect(game.plays[0].check == .conflict(second: nil))
        #expect(game.nextDeadline == nil)
        // An entry after the window is a new pending play.
        try game.enter(homeAce, .twoPoints, by: Self.second, at: 9_800)
        #expect(game.plays.map(\.isPending) == [false, true])
        #expect(try game.rebuilt() == game)
    }

    @Test("an answer at the window's end is too late: the window closes first, in the same outcome")
    func answerAtDeadline() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        let outcome = try game.enter(homeAce, .twoPoints, by: Self.second, at: 9_000)
        #expect(
            outcome.newEvents.map(\.kind) == [
                .confirmationExpired(play: 1), .move(player: homeAce, move: .twoPoints),
            ])
        #expect(game.plays[0].hasConflict && game.plays[1].isPending)
        #expect(try game.rebuilt() == game)
    }

    @Test("windows close in order, each at its instant, in one catch-up")
    func catchUpOrder() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.enter(awayAce, .twoPoints, at: 2_000)
        let events = game.catchUp(to: at(20_000))
        #expect(events.map(\.kind) == [.confirmationExpired(play: 1), .confirmationExpired(play: 2)])
        #expect(events.map(\.at) == [at(9_000), at(10_000)])
        #expect(try game.rebuilt() == game)
    }

    /// A game with play 1 (Ann's two) in conflict with `second`'s entry (Bo's two), or with no entry.
    static func conflicted(answered: Bool) throws -> Game {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        if answered {
            try game.enter(homeTwo, .twoPoints, by: second, at: 2_000)
        } else {
            game.catchUp(to: at(10_000))
        }
        return game
    }

    @Test("keep first counts the play as entered")
    func resolveFirst() throws {
        var game = try Self.conflicted(answered: true)
        let entry = try #require(game.secondEntry)
        #expect(entry.player == homeTwo && entry.by == Self.second)
        try game.run(.resolve(play: 1, keep: .first), by: Self.second, at: 3_000)
        #expect(game.plays[0].check == .resolved(keep: .first, by: Self.second, second: entry))
        #expect(game.plays[0].player == homeAce)
        #expect(game.score.home == 2 && game.moveCount(for: homeAce, move: .twoPoints) == 1)
        #expect(game.conflicts.isEmpty)
        #expect(try game.rebuilt() == game)
    }

    @Test("keep second counts the second scorer's entry")
    func resolveSecond() throws {
        var game = try Self.conflicted(answered: true)
        try game.run(.resolve(play: 1, keep: .second), at: 3_000)
        #expect(game.plays[0].player == homeTwo)
        #expect(game.score.home == 2 && game.moveCount(for: homeTwo, move: .twoPoints) == 1)
        #expect(game.moveCount(for: homeAce, move: .twoPoints) == 0)
        #expect(try game.rebuilt() == game)
    }

    @Test("keep both counts both entries, the second as a play of its own")
    func resolveBoth() throws {
        var game = try Self.conflicted(answered: true)
        try game.run(.resolve(play: 1, keep: .both), at: 3_000)
        #expect(game.plays.map(\.player) == [homeAce, homeTwo])
        #expect(game.plays[1].enteredBy == Self.second)
        #expect(game.score.home == 4)
        #expect(try game.rebuilt() == game)
    }

    @Test("keep neither deletes the play")
    func resolveNeither() throws {
        var game = try Self.conflicted(answered: false)
        try game.run(.resolve(play: 1, keep: .neither), at: 11_000)
        #expect(game.plays[0].isDeleted && !game.plays[0].isCounted)
        #expect(game.score == ScoreLine())
        #expect(game.conflicts.isEmpty)
        #expect(try game.rebuilt() == game)
    }

    @Test("a window that closed unanswered keeps first or neither only")
    func resolveExpired() throws {
        var game = try Self.conflicted(answered: false)
        for keep in [ConflictResolution.second, .both] {
            #expect(throws: GameError.noSecondEntry(1)) { try game.run(.resolve(play: 1, keep: keep), at: 11_000) }
        }
        try game.run(.resolve(play: 1, keep: .first), at: 11_000)
        #expect(game.score.home == 2)
        #expect(throws: GameError.notInConflict(1)) { try game.run(.resolve(play: 1, keep: .first), at: 12_000) }
    }

    @Test("a resolve of a play not in conflict, or of no play, is refused")
    func resolveRefused() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        #expect(throws: GameError.notInConflict(1)) { try game.run(.resolve(play: 1, keep: .first), at: 2_000) }
        #expect(throws: GameError.unknownPlay(2)) { try game.run(.resolve(play: 2, keep: .first), at: 2_000) }
    }

    @Test("only scorers resolve: judge, stats and clock roles are refused and change nothing")
    func resolveRoles() throws {
        var game = try Self.conflicted(answered: true)
        try game.addCrewMember(role: .clock, label: "Clock", tokenSHA256: Self.digest, at: at(2_500))
        let before = game
        for (member, role) in [("m2", CrewRole.judge), ("m3", .stats), ("m4", .clock)] {
            #expect(throws: GameError.notAllowedForRole(role, command: "resolve")) {
                try game.run(.resolve(play: 1, keep: .first), by: CrewMemberID(member), at: 3_000)
            }
        }
        #expect(game == before)
    }

    @Test("a scorer's undo takes back its own pending play: it waits no more, nothing changed")
    func undoPending() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.enter(awayAce, .twoPoints, by: Self.second, at: 1_100)
        // The scorer token's undo takes its own play 1, not the second scorer's later play 2.
        let undo = try game.run(.undo, at: 1_200)
        #expect(undo.event.kind == .undo(undoes: game.plays[0].sequence))
        #expect(game.plays[0].isDeleted && !game.plays[0].isPending)
        #expect(game.plays[1].isPending)
        #expect(game.nextDeadline == at(9_100))
        // The second scorer's home entry now finds nothing to answer: a new pending play.
        try game.enter(homeAce, .twoPoints, by: Self.second, at: 1_300)
        #expect(game.plays[2].isPending)
        #expect(game.score == ScoreLine())
        #expect(try game.rebuilt() == game)
    }

    @Test("an undo of a confirmed play by either scorer takes its points back; a conflict is not undone")
    func undoConfirmed() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.enter(homeAce, .twoPoints, by: Self.second, at: 1_100)
        try game.run(.undo, by: Self.second, at: 1_200)
        #expect(game.plays[0].isDeleted && game.score == ScoreLine())
        var conflicted = try Self.conflicted(answered: true)
        #expect(throws: GameError.nothingToUndo) { try conflicted.run(.undo, at: 3_000) }
        #expect(try game.rebuilt() == game)
    }

    @Test("the judge has nothing to undo and may not: an undo is a scorer's")
    func undoNotJudge() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        #expect(throws: GameError.notAllowedForRole(.judge, command: "undo")) {
            try game.run(.undo, by: "m2", at: 1_100)
        }
    }

    @Test("editing a pending play corrects it without counting; the matching entry then confirms the correction")
    func editPending() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.run(.editPlay(play: 1, player: homeTwo, move: .onePoint), at: 1_100)
        #expect(game.plays[0].isPending && game.plays[0].isEdited)
        #expect(game.score == ScoreLine())
        try game.enter(homeTwo, .onePoint, by: Self.second, at: 1_200)
        #expect(game.plays[0].check == .confirmed(by: Self.second))
        #expect(game.score.home == 1)
        #expect(try game.rebuilt() == game)
    }

    @Test("editing or deleting a confirmed play recounts at once; a conflict refuses both")
    func editConfirmed() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.enter(homeAce, .twoPoints, by: Self.second, at: 1_100)
        try game.run(.editPlay(play: 1, player: homeAce, move: .onePoint), by: Self.second, at: 1_200)
        #expect(game.score.home == 1)
        try game.run(.deletePlay(play: 1), at: 1_300)
        #expect(game.score.home == 0)
        var conflicted = try Self.conflicted(answered: true)
        #expect(throws: GameError.playInConflict(1)) {
            try conflicted.run(.editPlay(play: 1, player: homeAce, move: .twoPoints), at: 3_000)
        }
        #expect(throws: GameError.playInConflict(1)) { try conflicted.run(.deletePlay(play: 1), at: 3_000) }
        #expect(try game.rebuilt() == game)
    }

    @Test("deleting a pending play ends its wait")
    func deletePending() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.run(.deletePlay(play: 1), by: Self.second, at: 1_100)
        #expect(game.plays[0].isDeleted && game.nextDeadline == nil)
        #expect(game.catchUp(to: at(20_000)).isEmpty)
    }

    @Test("an id the other scorer used is refused, never taken for that scorer's retry")
    func commandIDsPerScorer() throws {
        var game = try Self.game()
        let command = GameCommand.move(homeAce, .twoPoints, id: "same")
        try game.apply(command, at: at(1_000))
        #expect(try game.apply(command, at: at(1_100)).isDuplicate)
        #expect(throws: GameError.self) { try game.apply(command, by: Self.second, at: at(1_200)) }
    }

    @Test("a pending foul does not foul a player out; confirmed fouls count as team fouls")
    func fouls() throws {
        var game = makeGame(try Rules.fiba3x3.confirmedByTwoScorers())
        try game.addCrewMember(role: .scorer, label: "Check sheet", tokenSHA256: Self.digest, at: at(0))
        try game.enter(homeAce, .foul, at: 1_000)
        #expect(game.teamFouls.home == 0)
        try game.enter(homeAce, .foul, by: Self.second, at: 1_100)
        #expect(game.teamFouls.home == 1)
    }

    @Test("final is refused while plays are pending or in conflict, so a locked game has no window to close")
    func finalWaits() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        #expect(throws: GameError.unconfirmedPlays(pending: 1, conflicts: 0)) { try game.run(.final, at: 1_100) }
        game.catchUp(to: at(10_000))
        #expect(throws: GameError.unconfirmedPlays(pending: 0, conflicts: 1)) { try game.run(.final, at: 10_100) }
        try game.run(.resolve(play: 1, keep: .first), at: 10_200)
        try game.run(.final, at: 10_300)
        #expect(game.isLocked)
    }

    @Test("the rules option: default off, a window within range, clear errors, and its JSON")
    func rules() throws {
        #expect(Rules.pickup.dualConfirmation == nil)
        #expect(try Rules.pickup.confirmedByTwoScorers().dualConfirmation?.windowMs == 8_000)
        #expect(throws: RulesError.confirmWindowOutOfRange(999)) {
            try Rules.pickup.confirmedByTwoScorers(windowMs: 999)
        }
        #expect(throws: RulesError.confirmWindowOutOfRange(60_001)) {
            try Rules.pickup.confirmedByTwoScorers(windowMs: 60_001)
        }
        #expect(throws: RulesError.unknownConfirmation("triple")) {
            try Rules.pickup.withConfirmation("triple", windowMs: nil)
        }
        #expect(throws: RulesError.confirmWindowWithoutDual) { try Rules.pickup.withConfirmation(nil, windowMs: 5_000) }
        let decoded = try JSONDecoder().decode(
            Rules.self, from: Data(#"{"preset":"fiba3x3","confirmation":"dual","confirmWindowMs":5000}"#.utf8))
        #expect(decoded == (try Rules.fiba3x3.confirmedByTwoScorers(windowMs: 5_000)))
        #expect(try JSONDecoder().decode(Rules.self, from: JSONEncoder().encode(decoded)) == decoded)
        let plain = String(decoding: try JSONEncoder().encode(Rules.fiba3x3), as: UTF8.self)
        #expect(!plain.contains("confirm"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Rules.self, from: Data(#"{"preset":"pickup","confirmWindowMs":5000}"#.utf8))
        }
    }

    @Test("the events round-trip through JSON and replay to the same game")
    func eventsJSON() throws {
        var game = try Self.conflicted(answered: false)
        try game.run(.resolve(play: 1, keep: .first), by: Self.second, at: 11_000)
        let data = try JSONEncoder().encode(game.events)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""type":"confirmationExpired""#))
        #expect(text.contains(#""keep":"first""#))
        let decoded = try JSONDecoder().decode([GameEvent].self, from: data)
        #expect(try Game(setup: game.setup, replaying: decoded) == game)
    }

    @Test("a replay missing a closed window is refused")
    func replayNeedsExpiry() throws {
        var game = try Self.game()
        try game.enter(homeAce, .twoPoints, at: 1_000)
        try game.enter(homeAce, .twoPoints, by: Self.second, at: 9_500)
        var events = game.events
        let index = try #require(events.firstIndex { $0.kind == .confirmationExpired(play: 1) })
        events.remove(at: index)
        events = events.enumerated().map { offset, event in
            GameEvent(
                sequence: offset + 1, at: event.at, commandID: event.commandID, kind: event.kind, by: event.member)
        }
        #expect(throws: GameReplayError.self) { try Game(setup: game.setup, replaying: events) }
    }
}

extension Game {
    /// Enters `move` for `player` as `member` (nil: the game's scorer token) under a fresh command id.
    @discardableResult
    mutating func enter(
        _ player: PlayerID, _ move: PlayerMove, by member: CrewMemberID? = nil, at ms: Int64
    ) throws(GameError) -> CommandOutcome {
        try run(.move(player: player, move: move), by: member, at: ms)
    }

    /// Applies `action` as `member` under a fresh command id.
    @discardableResult
    mutating func run(
        _ action: GameCommand.Action, by member: CrewMemberID?, at ms: Int64
    ) throws(GameError) -> CommandOutcome {
        try apply(GameCommand(id: CommandID("t\(events.count + 1)"), action: action), by: member, at: at(ms))
    }

    /// The second entry of play 1's conflict or resolution.
    var secondEntry: PlayEntry? {
        switch plays[0].check {
        case .conflict(let second)?, .resolved(_, _, let second)?: second
        default: nil
        }
    }
}
