import CourtsideModel
import Foundation
import Testing

@Suite("Event sourcing: a game rebuilt from its events equals the original")
struct ReplayTests {
    /// A game that exercises every event kind: moves, clock, undo, the time limit and overtime.
    static func eventfulGame() throws -> Game {
        var game = makeGame(.fiba3x3)
        try game.move(homeAce, .assist, at: 0)
        try game.run(.clock(.start), at: 1_000)
        try game.move(homeAce, .twoPoints, at: 5_000)
        try game.move(awayAce, .twoPoints, at: 6_000)
        try game.move(awayTwo, .onePoint, at: 7_000)
        try game.run(.undo, at: 8_000)
        try game.run(.clock(.pause), at: 9_000)
        try game.run(.clock(.start), at: 20_000)
        game.advance(to: at(700_000))
        try game.move(homeTwo, .rebound, at: 701_000)
        try game.move(homeTwo, .onePoint, at: 702_000)
        try game.move(awayAce, .foul, at: 703_000)
        try game.move(homeAce, .onePoint, at: 704_000)
        return game
    }

    @Test("a game with every kind of event rebuilds equal")
    func scriptedRebuild() throws {
        let game = try Self.eventfulGame()
        #expect(game.winner == .home)
        #expect(game.events.contains { $0.kind == .timeLimitReached })
        #expect(try game.rebuilt() == game)
    }

    @Test("events survive a JSON round trip and rebuild an equal game")
    func jsonRoundTrip() throws {
        let game = try Self.eventfulGame()
        let data = try JSONEncoder().encode(game.events)
        let decoded = try JSONDecoder().decode([GameEvent].self, from: data)
        #expect(decoded == game.events)
        let setup = try JSONDecoder().decode(GameSetup.self, from: JSONEncoder().encode(game.setup))
        #expect(try Game(setup: setup, replaying: decoded) == game)
    }

    @Test("replaying event by event matches the game after every event")
    func stepwiseReplay() throws {
        var original = makeGame(.fiba3x3)
        var replica = Game(setup: original.setup)
        let script: [(GameCommand.Action, Int64)] = [
            (.clock(.start), 0), (.move(player: homeAce, move: .onePoint), 10), (.undo, 20),
            (.move(player: awayAce, move: .twoPoints), 599_000), (.move(player: homeAce, move: .onePoint), 650_000),
        ]
        for (action, time) in script {
            do {
                let outcome = try original.run(action, at: time)
                for event in outcome.newEvents {
                    try replica.replay(event)
                }
            } catch let error as GameError {
                #expect(error == .moveAfterFinish(winner: .away))
            }
            #expect(replica == original)
        }
        // The refused late move recorded nothing; the owner's tick records the limit, which the replica follows.
        #expect(original.winner == nil)
        let tick = original.advance(to: at(650_000))
        try replica.replay(try #require(tick))
        #expect(original.winner == .away)
        #expect(replica == original)
    }

    @Test("a tampered log is refused and the game stays untouched", arguments: 0..<7)
    func tamperedLogs(variant: Int) throws {
        let game = try Self.eventfulGame()
        var events = game.events
        let first = events[0]
        switch variant {
        case 0:  // a gap in the sequence
            events.remove(at: 2)
        case 1:  // time going backwards
            events[3] = GameEvent(sequence: 4, at: at(1), commandID: events[3].commandID, kind: events[3].kind)
        case 2:  // an undo of another move
            let undo = events[5]
            events[5] = GameEvent(sequence: 6, at: undo.at, commandID: undo.commandID, kind: .undo(undoes: 3))
        case 3:  // the time limit at the wrong instant
            let index = try #require(events.firstIndex { $0.kind == .timeLimitReached })
            let limit = events[index]
            events[index] = GameEvent(
                sequence: limit.sequence, at: limit.at.advanced(byMilliseconds: 1), commandID: nil,
                kind: .timeLimitReached)
        case 4:  // the time limit dropped
            let index = try #require(events.firstIndex { $0.kind == .timeLimitReached })
            events =
                Array(events[..<index])
                + events[(index + 1)...].map {
                    GameEvent(sequence: $0.sequence - 1, at: $0.at, commandID: $0.commandID, kind: $0.kind)
                }
        case 5:  // a command id used twice
            events[1] = GameEvent(sequence: 2, at: events[1].at, commandID: first.commandID, kind: events[1].kind)
        default:  // a move the game would refuse
            events[2] = GameEvent(
                sequence: 3, at: events[2].at, commandID: events[2].commandID,
                kind: .move(player: "away-9", move: .onePoint))
        }
        #expect(throws: GameReplayError.self) {
            try Game(setup: game.setup, replaying: events)
        }
        // The failing event leaves the partly rebuilt game as it was before it.
        var partial = Game(setup: game.setup)
        for event in events {
            let before = partial
            do {
                try partial.replay(event)
            } catch {
                #expect(partial == before)
                break
            }
        }
    }

    @Test("an event without a command id other than the time limit is refused")
    func eventWithoutCommandID() {
        var game = makeGame()
        let event = GameEvent(sequence: 1, at: at(0), commandID: nil, kind: .clock(.start))
        #expect(throws: GameReplayError.inconsistent(event)) { try game.replay(event) }
        #expect(game == makeGame())
    }
}
