import CourtsideModel
import CourtsideViewModels
import Testing

/// The statistics in the document, traced exhaustively: every change a command makes, the statistics included.
@Suite("Statistics traces (exhaustive)")
struct StatisticsTraceTests {
    @Test("5x5: minutes at each clock stop and substitution, a three with plus-minus, a team rebound, endPeriod")
    func fiveOnFive() {
        let store = ScoreboardTestStore(
            setup: Fixtures.setup(id: "g1", rules: .fiba5x5, playersPerTeam: 6), includesStatistics: true)
        let starters = (0..<5).flatMap { ["/homePlayers/\($0)", "/awayPlayers/\($0)"] }
        store.send(
            .startClock(id: "s"), at: 0, reply: .accepted(id: "s", seq: 1),
            changes: [
                "/isPaused": false, "/clock/running": true, "/shotClock/running": true, "/shotClock/asOf": 1_000_000,
            ])
        // The pause at 1:00.5 credits the ten on court (a team sums milliseconds: 5 × 60.5 s is 302 s).
        var pause: [String: JSONValue] = [
            "/isPaused": true, "/time": "01:00.5", "/clock/running": false, "/clock/elapsedMs": 60_500,
            "/clock/asOf": 1_060_500, "/shotClock/running": false, "/shotClock/asOf": 1_060_500,
            "/shotClock/remainingMs": 0, "/homeStats/secondsPlayed": 302, "/awayStats/secondsPlayed": 302,
        ]
        for player in starters {
            pause[player + "/stats/secondsPlayed"] = 60
            pause[player + "/playedMs"] = 60_500
        }
        store.send(GameCommand.pauseClock(id: "p"), at: 60_500, reply: .accepted(id: "p", seq: 2), changes: pause)
        // A substitution changes who is on court; the minutes already read stay.
        store.send(
            GameCommand(id: "sub", action: .substitute(team: .home, playerOut: "home-0", playerIn: "home-5")),
            at: 61_000, reply: .accepted(id: "sub", seq: 3),
            changes: ["/homePlayers/0/onCourt": false, "/homePlayers/5/onCourt": true])
        // A three: the shooter's line, the plus-minus of the ten on court (home-5 now, not home-0), the sums.
        var three: [String: JSONValue] = [
            "/score": "3 - 0", "/homeScore": 3, "/homePlayers/2/points": 3,
            "/plays/0": store.play(1, seq: 4, at: 62_000, elapsedMs: 60_500, player: "home-2", move: .threePoints),
            "/homePlayers/2/stats/points": 3, "/homePlayers/2/stats/fieldGoalsMade": 1,
            "/homePlayers/2/stats/fieldGoalsAttempted": 1, "/homePlayers/2/stats/threePointersMade": 1,
            "/homePlayers/2/stats/threePointersAttempted": 1, "/homePlayers/2/stats/efficiency": 3,
            "/homeStats/points": 3, "/homeStats/fieldGoalsMade": 1, "/homeStats/fieldGoalsAttempted": 1,
            "/homeStats/threePointersMade": 1, "/homeStats/threePointersAttempted": 1, "/homeStats/efficiency": 3,
            "/homeStats/plusMinus": 15, "/awayStats/plusMinus": -15, "/periodScores/0/0": 3,
        ]
        for index in 1...5 { three["/homePlayers/\(index)/stats/plusMinus"] = 3 }
        for index in 0..<5 { three["/awayPlayers/\(index)/stats/plusMinus"] = -3 }
        three["/plays/0"] = three["/plays/0"]?.with("period", 1)
        store.send(
            .move("home-2", .threePoints, id: "t"), at: 62_000, reply: .accepted(id: "t", seq: 4), changes: three)
        store.send(
            GameCommand(id: "r", action: .teamMove(team: .away, move: .defensiveRebound)), at: 63_000,
            reply: .accepted(id: "r", seq: 5), changes: ["/awayStats/teamRebounds": 1])
        // The period ends by hand: minutes to 10:00 for those on court, a new period's score.
        var end: [String: JSONValue] = [
            "/time": "00:00.0", "/clock/elapsedMs": 0, "/clock/asOf": 1_070_000, "/period": 2,
            "/shotClock/asOf": 1_070_000, "/shotClock/remainingMs": 24_000, "/periodScores/1": [0, 0],
            "/homeStats/secondsPlayed": 3_000, "/awayStats/secondsPlayed": 3_000,
        ]
        for player in starters where player != "/homePlayers/0" {
            end[player + "/stats/secondsPlayed"] = 600
            end[player + "/playedMs"] = 600_000
        }
        end["/homePlayers/5/stats/secondsPlayed"] = 539
        end["/homePlayers/5/playedMs"] = 539_500
        store.send(
            GameCommand(id: "e", action: .endPeriod), at: 70_000, reply: .accepted(id: "e", seq: 6), changes: end)
    }
}

extension JSONValue {
    /// This object with `key` set to `value`.
    fileprivate func with(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}
