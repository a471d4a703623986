import CourtsideModel
import CourtsideViewModels
import Testing

/// The STATE members of FIBA games, and corrections as single patches.
@Suite("FIBA documents: period, shot clock, fouls, timeouts, possession, plays")
struct FibaDocumentTests {
    static let start = Timestamp(milliseconds: 1_000_000)

    static func presenter(_ rules: Rules, players: Int = 3) -> (GamePresenter, PresenterRecorder) {
        let viewModel = GameScoreboardEditorViewModel(
            game: Game(setup: Fixtures.setup(id: "g1", rules: rules, playersPerTeam: players)), now: start,
            clock: { start })
        let presenter = GamePresenter(viewModel: viewModel)
        return (presenter, PresenterRecorder(presenter))
    }

    static func send(_ recorder: PresenterRecorder, _ json: String, at ms: Int64) -> CommandReply {
        recorder.handle(commandBytes: Array(json.utf8), now: start.advanced(byMilliseconds: ms))
    }

    @Test("a new 3x3 game shows period 1 of 10:00, a stopped 12-second shot clock, no fouls, one timeout each")
    func fiba3x3Snapshot() throws {
        let (presenter, _) = Self.presenter(.fiba3x3)
        let state = presenter.document
        #expect(state["period"] == 1)
        #expect(state["isOvertime"] == false)
        #expect(state["clock"]?["periodLengthMs"] == 600_000)
        #expect(state["shotClock"] == ["enabled": true, "running": false, "remainingMs": 12_000, "asOf": nil])
        #expect(state["homeTeamFouls"] == 0)
        #expect(state["awayInPenalty"] == false)
        #expect(state["homeTimeoutsLeft"] == 1)
        #expect(state["possession"] == .null)
        #expect(state["isLocked"] == false)
        #expect(state["rules"]?["shotClockMs"] == 12_000)
        #expect(state["homePlayers"]?.arrayValue?[0]["onCourt"] == .null)
    }

    @Test("an edit three plays back is one patch: score, both players' counts and the play change together")
    func editIsOnePatch() throws {
        let (presenter, recorder) = Self.presenter(.fiba3x3)
        for (index, (player, move)) in [("home-0", "twoPoints"), ("away-1", "onePoint"), ("home-2", "rebound")]
            .enumerated()
        {
            let reply = Self.send(
                recorder, #"{"type":"move","id":"m\#(index)","player":"\#(player)","move":"\#(move)"}"#,
                at: Int64(index) * 1_000)
            #expect(reply == .accepted(id: CommandID("m\(index)"), seq: index + 1))
        }
        let edit = Self.send(
            recorder, #"{"type":"editPlay","id":"e1","play":1,"player":"home-1","move":"onePoint"}"#, at: 5_000)
        #expect(edit == .accepted(id: "e1", seq: 4))
        #expect(recorder.messages.count == 4)
        let ops = Set(try recorder.lastOps().compactMap { $0["path"]?.stringValue })
        // The statistics change with the counts (asserted in StatisticsTraceTests).
        #expect(
            Set(ops.filter { !ScoreboardTestStore.isStatistic($0) }) == [
                "/score", "/homeScore", "/homePlayers/0/twoPointMoveCount", "/homePlayers/0/points",
                "/homePlayers/1/onePointMoveCount", "/homePlayers/1/points", "/plays/0/edited", "/plays/0/move",
                "/plays/0/player",
            ])
        #expect(presenter.document["score"] == "1 - 1")
        #expect(presenter.document["plays"]?.arrayValue?[0]["seq"] == 1, "a play keeps the seq that first showed it")
        let delete = Self.send(recorder, #"{"type":"deletePlay","id":"d1","play":2}"#, at: 6_000)
        #expect(delete == .accepted(id: "d1", seq: 5))
        #expect(presenter.document["score"] == "1 - 0")
        #expect(presenter.document["plays"]?.arrayValue?[1]["deleted"] == true)
    }

    @Test("team fouls, the penalty, timeouts and possession reach the document")
    func foulsTimeoutsPossession() throws {
        let (presenter, recorder) = Self.presenter(.fiba3x3)
        for foul in 0..<7 {
            _ = Self.send(
                recorder, #"{"type":"move","id":"f\#(foul)","player":"away-0","move":"foul"}"#, at: Int64(foul))
        }
        #expect(presenter.document["awayTeamFouls"] == 7)
        #expect(presenter.document["awayInPenalty"] == true)
        #expect(presenter.document["homeInPenalty"] == false)
        #expect(
            Self.send(recorder, #"{"type":"timeout","id":"t1","team":"home"}"#, at: 10) == .accepted(id: "t1", seq: 8))
        #expect(presenter.document["homeTimeoutsLeft"] == 0)
        let refused = Self.send(recorder, #"{"type":"timeout","id":"t2","team":"home"}"#, at: 11)
        #expect(
            refused
                == .rejected(
                    id: "t2", failure: CommandFailure(WireErrorCode(.noTimeoutsLeft), "home has no timeout left")))
        _ = Self.send(recorder, #"{"type":"possession","id":"p1","team":"away"}"#, at: 12)
        #expect(presenter.document["possession"] == "away")
        #expect(try recorder.lastOps() == [["op": "replace", "path": "/possession", "value": "away"]])
    }

    @Test("5x5: five on court, a substitution flips two players, the quarter ends into period 2 with fresh fouls")
    func fiveOnFive() throws {
        let (presenter, recorder) = Self.presenter(.fiba5x5, players: 6)
        #expect(presenter.document["homePlayers"]?.arrayValue?[4]["onCourt"] == true)
        #expect(presenter.document["homePlayers"]?.arrayValue?[5]["onCourt"] == false)
        let sub = Self.send(
            recorder, #"{"type":"substitute","id":"s1","team":"home","out":"home-4","in":"home-5"}"#, at: 0)
        #expect(sub == .accepted(id: "s1", seq: 1))
        #expect(
            Set(try recorder.lastOps().compactMap { $0["path"]?.stringValue })
                == ["/homePlayers/4/onCourt", "/homePlayers/5/onCourt"])
        _ = Self.send(recorder, #"{"type":"move","id":"f1","player":"home-5","move":"foul"}"#, at: 1)
        #expect(presenter.document["homeTeamFouls"] == 1)
        _ = Self.send(recorder, #"{"type":"clock","id":"c1","action":"start"}"#, at: 1_000)
        recorder.tick(now: Self.start.advanced(byMilliseconds: 601_000))
        #expect(presenter.document["period"] == 2)
        #expect(presenter.document["homeTeamFouls"] == 0)
        #expect(presenter.document["time"] == "00:00.0")
        #expect(presenter.document["clock"]?["elapsedMs"] == 0)
        #expect(presenter.document["shotClock"]?["remainingMs"] == 24_000)
    }

    @Test("final locks the game for every command; a reopen is one patch that unlocks it")
    func finalAndReopen() throws {
        let (presenter, recorder) = Self.presenter(.fiba3x3)
        #expect(Self.send(recorder, #"{"type":"final","id":"x"}"#, at: 0) == .accepted(id: "x", seq: 1))
        #expect(presenter.document["isLocked"] == true)
        let refused = Self.send(recorder, #"{"type":"undo","id":"u"}"#, at: 1)
        #expect(refused.json["code"] == "game_locked")
        try recorder.reopen(now: Self.start.advanced(byMilliseconds: 2))
        #expect(presenter.seq == 2)
        #expect(presenter.document["isLocked"] == false)
    }
}
