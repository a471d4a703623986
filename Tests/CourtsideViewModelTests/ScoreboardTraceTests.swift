import CourtsideModel
import CourtsideViewModels
import Testing

/// Whole games as traces: every command's reply and every change it causes, nothing unasserted.
@Suite("Scoreboard traces (exhaustive)")
struct ScoreboardTraceTests {
    @Test("pickup: 15-13 finishes, a move after is refused, undoing the winning basket reopens the game")
    func pickupToFifteen() {
        let store = ScoreboardTestStore()
        store.send(
            .startClock(id: "s"), at: 0, reply: .accepted(id: "s", seq: 1),
            changes: ["/isPaused": false, "/clock/running": true])
        // 13 - 13 through alternating baskets, each one message.
        for round in 0..<13 {
            let ms = Int64(round + 1) * 60
            store.send(
                Fixtures.move("home-0", .onePoint, "h\(round)"), at: ms,
                reply: .accepted(id: CommandID("h\(round)"), seq: 2 + 2 * round),
                changes: [
                    "/score": .string("\(round + 1) - \(round)"), "/homeScore": .int(round + 1),
                    "/homePlayers/0/onePointMoveCount": .string("\(round + 1)"),
                    "/homePlayers/0/points": .int(round + 1),
                    "/plays/\(2 * round)": store.play(
                        2 * round + 1, seq: 2 + 2 * round, at: ms, elapsedMs: ms, player: "home-0", move: .onePoint),
                ])
            store.send(
                Fixtures.move("away-2", .onePoint, "a\(round)"), at: ms + 30,
                reply: .accepted(id: CommandID("a\(round)"), seq: 3 + 2 * round),
                changes: [
                    "/score": .string("\(round + 1) - \(round + 1)"), "/awayScore": .int(round + 1),
                    "/awayPlayers/2/onePointMoveCount": .string("\(round + 1)"),
                    "/awayPlayers/2/points": .int(round + 1),
                    "/plays/\(2 * round + 1)": store.play(
                        2 * round + 2, seq: 3 + 2 * round, at: ms + 30, elapsedMs: ms + 30, player: "away-2",
                        move: .onePoint),
                ])
        }
        store.tick(at: 1_000, changes: ["/time": "00:01.0"])
        store.send(
            Fixtures.move("home-1", .twoPoints, "win"), at: 1_500, reply: .accepted(id: "win", seq: 29),
            changes: [
                "/score": "15 - 13", "/homeScore": 15, "/homePlayers/1/twoPointMoveCount": "1",
                "/homePlayers/1/points": 2,
                "/isFinished": true, "/winner": "home", "/isPaused": true, "/time": "00:01.5",
                "/clock/running": false, "/clock/elapsedMs": 1_500, "/clock/asOf": 1_001_500,
                "/plays/26": store.play(27, seq: 29, at: 1_500, elapsedMs: 1_500, player: "home-1", move: .twoPoints),
            ])
        store.send(
            Fixtures.move("away-0", .foul, "late"), at: 1_600,
            reply: .rejected(
                id: "late",
                failure: CommandFailure(WireErrorCode(.gameFinished), "the game is finished (home won): no more moves")),
            changes: [:])
        store.send(
            .undo(id: "u"), at: 1_700, reply: .accepted(id: "u", seq: 30),
            changes: [
                "/score": "13 - 13", "/homeScore": 13, "/homePlayers/1/twoPointMoveCount": "0",
                "/homePlayers/1/points": 0,
                "/isFinished": false, "/winner": nil, "/plays/26/deleted": true,
            ])
        store.send(.undo(id: "u"), at: 1_800, reply: .accepted(id: "u", seq: 30), changes: [:])
    }

    @Test("fiba3x3: a tie at 10:00 goes to overtime, won by the first team to score 2 in it")
    func fibaOvertime() {
        let store = ScoreboardTestStore(rules: .fiba3x3)
        store.send(
            .startClock(id: "s"), at: 0, reply: .accepted(id: "s", seq: 1),
            changes: [
                "/isPaused": false, "/clock/running": true, "/shotClock/running": true, "/shotClock/asOf": 1_000_000,
            ])
        // The end of regulation on a tie: overtime (period 2, untimed) begins, with a full shot clock.
        store.tick(
            at: 600_000,
            changes: [
                "/time": "10:00.0", "/isPaused": true, "/clock/running": false, "/clock/elapsedMs": 600_000,
                "/clock/asOf": 1_600_000, "/clock/periodLengthMs": nil, "/period": 2, "/isOvertime": true,
                "/shotClock/running": false, "/shotClock/asOf": 1_600_000,
            ])
        store.send(
            Fixtures.move("away-1", .onePoint, "o1"), at: 601_000, reply: .accepted(id: "o1", seq: 3),
            changes: [
                "/score": "0 - 1", "/awayScore": 1, "/awayPlayers/1/onePointMoveCount": "1", "/awayPlayers/1/points": 1,
                "/plays/0": store.play(
                    1, seq: 3, at: 601_000, elapsedMs: 600_000, player: "away-1", move: .onePoint, period: 2),
            ])
        store.send(
            Fixtures.move("away-1", .onePoint, "o2"), at: 602_000, reply: .accepted(id: "o2", seq: 4),
            changes: [
                "/score": "0 - 2", "/awayScore": 2, "/awayPlayers/1/onePointMoveCount": "2", "/awayPlayers/1/points": 2,
                "/isFinished": true, "/winner": "away",
                "/plays/1": store.play(
                    2, seq: 4, at: 602_000, elapsedMs: 600_000, player: "away-1", move: .onePoint, period: 2),
            ])
    }
}
