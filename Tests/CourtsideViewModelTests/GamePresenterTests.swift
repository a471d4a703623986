import CourtsideModel
import CourtsideViewModels
import Testing

@Suite("GamePresenter: one command, one patch")
struct GamePresenterTests {
    private func makePresenter(clock: TestClock = TestClock()) -> (GamePresenter, PresenterRecorder) {
        let presenter = GamePresenter(viewModel: Fixtures.viewModel(clock: clock))
        return (presenter, PresenterRecorder(presenter))
    }

    @Test("a move becomes one patch message with seq + 1 holding every change it caused")
    func oneCommandOnePatch() throws {
        let (presenter, recorder) = makePresenter()
        let reply = recorder.handle(
            Fixtures.move("home-1", .twoPoints, "c1"), now: Timestamp(milliseconds: 5))
        #expect(reply == .accepted(id: "c1", seq: 1))
        #expect(recorder.messages.count == 1)
        let patch = try #require(recorder.messages.first)
        #expect(patch.seq == 1)
        // "at" is the batch's instant, the command's `now` (as the play's own "at"), not the clock's later reading.
        #expect(
            patch.text
                == #"{"at":5,"game":"g1","ops":["#
                + #"{"op":"replace","path":"/score","value":"2 - 0"},"#
                + #"{"op":"replace","path":"/homeScore","value":2},"#
                // The scorer's line, everybody's plus-minus (a pickup game has everybody on court), the sums.
                + #"{"op":"replace","path":"/homePlayers/0/stats/plusMinus","value":2},"#
                + #"{"op":"replace","path":"/homePlayers/1/stats/efficiency","value":2},"#
                + #"{"op":"replace","path":"/homePlayers/1/stats/fieldGoalsAttempted","value":1},"#
                + #"{"op":"replace","path":"/homePlayers/1/stats/fieldGoalsMade","value":1},"#
                + #"{"op":"replace","path":"/homePlayers/1/stats/plusMinus","value":2},"#
                + #"{"op":"replace","path":"/homePlayers/1/stats/points","value":2},"#
                + #"{"op":"replace","path":"/homePlayers/1/stats/twoPointersAttempted","value":1},"#
                + #"{"op":"replace","path":"/homePlayers/1/stats/twoPointersMade","value":1},"#
                + #"{"op":"replace","path":"/homePlayers/2/stats/plusMinus","value":2},"#
                + #"{"op":"replace","path":"/awayPlayers/0/stats/plusMinus","value":-2},"#
                + #"{"op":"replace","path":"/awayPlayers/1/stats/plusMinus","value":-2},"#
                + #"{"op":"replace","path":"/awayPlayers/2/stats/plusMinus","value":-2},"#
                + #"{"op":"replace","path":"/homeStats/efficiency","value":2},"#
                + #"{"op":"replace","path":"/homeStats/fieldGoalsAttempted","value":1},"#
                + #"{"op":"replace","path":"/homeStats/fieldGoalsMade","value":1},"#
                + #"{"op":"replace","path":"/homeStats/plusMinus","value":6},"#
                + #"{"op":"replace","path":"/homeStats/points","value":2},"#
                + #"{"op":"replace","path":"/homeStats/twoPointersAttempted","value":1},"#
                + #"{"op":"replace","path":"/homeStats/twoPointersMade","value":1},"#
                + #"{"op":"replace","path":"/awayStats/plusMinus","value":-6},"#
                + #"{"op":"replace","path":"/periodScores/0/0","value":2},"#
                + #"{"op":"add","path":"/plays/0","value":{"at":5,"deleted":false,"edited":false,"elapsedMs":0,"#
                + #""move":"twoPoints","period":null,"play":1,"player":"home-1","seq":1,"team":"home"}},"#
                + #"{"op":"replace","path":"/homePlayers/1/twoPointMoveCount","value":"1"},"#
                + #"{"op":"replace","path":"/homePlayers/1/points","value":2}"#
                + #"],"seq":1,"type":"patch","v":1}"#)
        #expect(presenter.seq == 1)
        #expect(presenter.snapshot().seq == 1)
    }

    @Test("a repeated command id gets the same ack and seq and produces no message")
    func idempotentCommandIDs() {
        let (presenter, recorder) = makePresenter()
        let viewModel = presenter.viewModel
        let first = recorder.handle(Fixtures.move("away-0", .onePoint, "c1"), now: Timestamp(milliseconds: 1))
        recorder.handle(Fixtures.move("away-0", .onePoint, "c2"), now: Timestamp(milliseconds: 2))
        let again = recorder.handle(Fixtures.move("away-0", .onePoint, "c1"), now: Timestamp(milliseconds: 3))
        #expect(first == .accepted(id: "c1", seq: 1))
        #expect(again == first)
        #expect(recorder.messages.map(\.seq) == [1, 2])
        #expect(viewModel.score.value == "0 - 2")
        #expect(first.bytes == again.bytes)
    }

    @Test("a refused command id gets the same error again, even after the game changed")
    func idempotentRefusals() {
        let (presenter, recorder) = makePresenter()
        let viewModel = presenter.viewModel
        let undo = GameCommand.undo(id: "u1")
        let refused = recorder.handle(undo, now: Timestamp(milliseconds: 1))
        recorder.handle(Fixtures.move("home-0", .onePoint, "m1"), now: Timestamp(milliseconds: 2))
        #expect(recorder.handle(undo, now: Timestamp(milliseconds: 3)) == refused)
        #expect(viewModel.score.value == "1 - 0")
        #expect(recorder.messages.count == 1)
    }

    @Test("an id reused for a different command is refused with command_id_reused")
    func reusedID() {
        let (_, recorder) = makePresenter()
        recorder.handle(Fixtures.move("home-0", .onePoint, "c1"), now: Timestamp(milliseconds: 1))
        let reply = recorder.handle(Fixtures.move("home-0", .foul, "c1"), now: Timestamp(milliseconds: 2))
        #expect(reply.json["code"] == "command_id_reused")
        #expect(reply.json["type"] == "error")
    }

    @Test("ticks within the same second produce no message; a new second produces one")
    func ticks() {
        let clock = TestClock()
        let (_, recorder) = makePresenter(clock: clock)
        recorder.handle(.startClock(id: "s1"), now: clock.now)
        #expect(recorder.messages.count == 1)
        clock.advance(999)
        recorder.tick(now: clock.now)
        #expect(recorder.messages.count == 1)
        clock.advance(1)
        recorder.tick(now: clock.now)
        #expect(recorder.messages.last?.text.contains(#"{"op":"replace","path":"/time","value":"00:01.0"}"#) == true)
        #expect(recorder.messages.map(\.seq) == [1, 2])
    }

    @Test("wire bytes go through the decoder: good commands are applied, bad ones answered with an error")
    func commandBytes() {
        let (_, recorder) = makePresenter()
        let good = recorder.handle(
            commandBytes: Array(#"{"type":"move","id":"c9","player":"away-2","move":"rebound"}"#.utf8),
            now: Timestamp(milliseconds: 1))
        #expect(good == .accepted(id: "c9", seq: 1))
        let bad = recorder.handle(
            commandBytes: Array(#"{"type":"move","id":"c10","player":"away-2","move":"dunk"}"#.utf8),
            now: Timestamp(milliseconds: 2))
        #expect(
            String(decoding: bad.bytes, as: UTF8.self)
                == #"{"code":"bad_command","id":"c10","message":"unknown move \"dunk\" (expected onePoint, "#
                + #"twoPoints, assist, rebound, foul, threePoints, freeThrow, onePointMissed, twoPointsMissed, "#
                + #"threePointsMissed, freeThrowMissed, offensiveRebound, defensiveRebound, steal, block, turnover, "#
                + #"offensiveFoul, technicalFoul, unsportsmanlikeFoul, disqualifyingFoul)","type":"error","v":1}"#)
        #expect(recorder.messages.count == 1)
    }

    @Test("each patch carries at: the injected clock's reading when it was made, inside the encoded bytes")
    func patchesAreDated() throws {
        let clock = TestClock(1_700_000_000_000)
        let (presenter, recorder) = makePresenter(clock: clock)
        recorder.handle(Fixtures.move("home-1", .twoPoints, "c1"), now: clock.now)
        clock.advance(1_234)
        recorder.handle(Fixtures.move("away-0", .onePoint, "c2"), now: clock.now)
        let dates = try recorder.messages.map { try JSONValue(parsing: $0.bytes)["at"] }
        #expect(dates == [.int(1_700_000_000_000), .int(1_700_000_001_234)])
        // A snapshot is not a change: it has no `at`.
        #expect(try JSONValue(parsing: presenter.snapshot().bytes)["at"] == nil)
    }

    @Test("colours and short names are in the document: given ones upper-cased, defaults otherwise")
    func branding() throws {
        let setup = try GameSetup(
            id: "g2", homeTeam: "Hawks", homeRoster: ["A", "B", "C"], awayTeam: "7", awayRoster: ["D", "E", "F"],
            homeBranding: TeamBranding(color: "#c8102e", short: "haw", side: .home))
        let viewModel = GameScoreboardEditorViewModel(
            game: Game(setup: setup), now: Timestamp(milliseconds: 0), clock: { Timestamp(milliseconds: 0) })
        let state = try #require(GamePresenter(viewModel: viewModel).document.objectValue)
        #expect(state["homeColor"] == "#C8102E")
        #expect(state["homeShort"] == "HAW")
        #expect(state["awayColor"] == .string(TeamBranding.defaultColor(.away)))
        #expect(state["awayShort"] == "AWAY")
    }

    @Test("the snapshot is the whole STATE document, with every member the protocol names")
    func snapshotShape() throws {
        let (presenter, _) = makePresenter()
        let snapshot = try JSONValue(parsing: presenter.snapshot().bytes)
        #expect(snapshot["type"] == "snapshot")
        #expect(snapshot["v"] == 1)
        #expect(snapshot["game"] == "g1")
        #expect(snapshot["seq"] == 0)
        let state = try #require(snapshot["state"]?.objectValue)
        #expect(
            Set(state.keys)
                == [
                    "id", "homeTeam", "awayTeam", "score", "homeScore", "awayScore", "time", "clock", "isPaused",
                    "isFinished", "winner", "rules", "homePlayers", "awayPlayers", "period", "isOvertime", "shotClock",
                    "homeTeamFouls", "awayTeamFouls", "homeInPenalty", "awayInPenalty", "homeTimeoutsLeft",
                    "awayTimeoutsLeft", "possession", "isLocked", "plays", "homeColor", "awayColor", "homeShort",
                    "awayShort", "homeStats", "awayStats", "periodScores",
                ])
        // A pickup game uses none of the FIBA features: they are present, and null.
        for key in [
            "period", "isOvertime", "shotClock", "homeTeamFouls", "awayTeamFouls", "homeInPenalty", "awayInPenalty",
            "homeTimeoutsLeft", "awayTimeoutsLeft", "possession",
        ] {
            #expect(state[key] == .null, "\(key)")
        }
        #expect(state["isLocked"] == false)
        #expect(state["plays"] == [])
        #expect(state["clock"]?["periodLengthMs"] == .null)
        let player = try #require(state["awayPlayers"]?.arrayValue?.last?.objectValue)
        #expect(
            Set(player.keys)
                == [
                    "id", "playerName", "onePointMoveCount", "twoPointMoveCount", "assistMoveCount",
                    "reboundMoveCount", "foulMoveCount", "points", "number", "onCourt", "stats", "playedMs",
                ])
        #expect(
            Set(player["stats"]?.objectValue?.keys ?? [:].keys)
                == [
                    "points", "fieldGoalsMade", "fieldGoalsAttempted", "twoPointersMade", "twoPointersAttempted",
                    "threePointersMade", "threePointersAttempted", "freeThrowsMade", "freeThrowsAttempted",
                    "offensiveRebounds", "defensiveRebounds", "rebounds", "assists", "steals", "blocks", "turnovers",
                    "fouls", "technicalFouls", "unsportsmanlikeFouls", "plusMinus", "secondsPlayed", "efficiency",
                    "fouledOut", "disqualified",
                ])
        #expect(state["periodScores"] == [[0, 0]])
        #expect(state["homeStats"]?["teamRebounds"] == 0)
        #expect(state["homeStats"]?["coachTechnicals"] == 0)
        #expect(player["id"] == "away-2")
        #expect(
            state["rules"]
                == [
                    "preset": "pickup", "targetScore": 15, "winBy": 2, "timeLimitMs": nil, "periods": 1,
                    "overtimeLengthMs": nil, "shotClockMs": nil, "shotClockResetMs": nil, "penaltyFrom": nil,
                    "onCourt": nil,
                ])
    }
}
