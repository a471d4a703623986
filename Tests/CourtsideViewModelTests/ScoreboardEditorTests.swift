import CourtsideModel
import CourtsideViewModels
import Testing

@Suite("GameScoreboardEditorViewModel and its player rows")
struct ScoreboardEditorTests {
    @Test("a new game reads as the tutorial's labels")
    func initialLabels() {
        let viewModel = Fixtures.viewModel()
        #expect(viewModel.homeTeam == "Lakers")
        #expect(viewModel.awayTeam == "Celtics")
        #expect(viewModel.score.value == "0 - 0")
        #expect(viewModel.time.value == "00:00.0")
        #expect(viewModel.isPaused.value)
        #expect(!viewModel.isFinished.value)
        #expect(viewModel.winner.value == nil)
        #expect(viewModel.homePlayers.map(\.playerName) == ["Ann", "Bo", "Cy"])
        #expect(viewModel.awayPlayers.map(\.playerID) == ["away-0", "away-1", "away-2"])
        #expect(viewModel.homePlayers[0].onePointMoveCount.value == "0")
    }

    @Test("the Dynamics made on a late first read show what Dynamics bound from the start show, and move on alike")
    func lateDynamics() {
        let early = Fixtures.viewModel()
        let late = Fixtures.viewModel()
        var earlyScores: [String] = []
        early.score.bind { earlyScores.append($0) }
        let start = Timestamp(milliseconds: 1_000)
        let commands: [GameCommand] = [
            .startClock(id: "s"), Fixtures.move("home-1", .twoPoints, "m1"), Fixtures.move("away-2", .foul, "m2"),
            .pauseClock(id: "p"),
        ]
        for (index, command) in commands.enumerated() {
            let now = start.advanced(byMilliseconds: Int64(index) * 1_500)
            #expect(early.apply(command, now: now) == late.apply(command, now: now))
        }
        // Nothing of `late`'s was read until now.
        func labels(_ viewModel: GameScoreboardEditorViewModel) -> [String] {
            [viewModel.score.value, viewModel.time.value, String(viewModel.revision.value)]
                + (viewModel.homePlayers + viewModel.awayPlayers).flatMap { player in
                    PlayerMove.allCases.map { player.moveCount($0).value } + [String(player.points.value)]
                }
        }
        #expect(labels(late) == labels(early))
        #expect(late.stats.value == early.stats.value && late.status.value == early.status.value)
        #expect(late.clock.value == early.clock.value && late.changedPlays.value == early.changedPlays.value)
        var lateScores: [String] = []
        late.score.bind { lateScores.append($0) }
        let next = Fixtures.move("home-0", .onePoint, "m3")
        let now = start.advanced(byMilliseconds: 9_000)
        #expect(early.apply(next, now: now) == late.apply(next, now: now))
        #expect(labels(late) == labels(early))
        #expect(earlyScores == ["2 - 0", "3 - 0"] && lateScores == ["3 - 0"])
    }

    @Test("each move button counts its move for its player, and the points buttons change the score")
    func moveButtons() {
        let viewModel = Fixtures.viewModel()
        let ann = viewModel.homePlayers[0]
        let flo = viewModel.awayPlayers[2]
        var scores: [String] = []
        viewModel.score.bind { scores.append($0) }
        ann.onePointMove()
        ann.twoPointsMove()
        ann.assistMove()
        ann.reboundMove()
        ann.foulMove()
        flo.twoPointsMove()
        #expect(
            [
                ann.onePointMoveCount, ann.twoPointMoveCount, ann.assistMoveCount, ann.reboundMoveCount,
                ann.foulMoveCount,
            ].map(\.value) == ["1", "1", "1", "1", "1"])
        #expect(flo.twoPointMoveCount.value == "1")
        #expect(flo.onePointMoveCount.value == "0")
        #expect(ann.points.value == 3)
        #expect(scores == ["1 - 0", "3 - 0", "3 - 2"])
        #expect(viewModel.homeScore.value == 3)
        #expect(viewModel.awayScore.value == 2)
        #expect(viewModel.revision.value == 6)
    }

    @Test("togglePause starts and pauses the clock; time shows whole seconds while running, tenths when paused")
    func togglePauseAndTime() {
        let clock = TestClock()
        let viewModel = Fixtures.viewModel(clock: clock)
        var times: [String] = []
        viewModel.time.bind { times.append($0) }
        viewModel.togglePause()
        #expect(!viewModel.isPaused.value)
        #expect(viewModel.clock.value == ClockData(running: true, elapsedMs: 0, asOf: clock.now))
        for _ in 0..<25 {  // 2.5 s in 100 ms ticks: the label changes twice, not 25 times
            clock.advance(100)
            viewModel.tick(now: clock.now)
        }
        #expect(times == ["00:01.0", "00:02.0"])
        viewModel.togglePause()
        #expect(viewModel.isPaused.value)
        #expect(viewModel.time.value == "00:02.5")
        #expect(viewModel.clock.value == ClockData(running: false, elapsedMs: 2500, asOf: clock.now))
    }

    @Test("the next tick deadline is the next whole second of game time")
    func tickDeadline() {
        let clock = TestClock()
        let viewModel = Fixtures.viewModel(clock: clock)
        #expect(viewModel.nextTickDeadline(after: clock.now) == nil)
        viewModel.start()
        clock.advance(1_300)
        #expect(viewModel.nextTickDeadline(after: clock.now) == clock.now.advanced(byMilliseconds: 700))
    }

    @Test("the winning basket finishes the game and stops the clock; undo reopens it")
    func finishAndUndo() {
        let viewModel = Fixtures.viewModel()
        viewModel.start()
        let ann = viewModel.homePlayers[0]
        for _ in 0..<7 { ann.twoPointsMove() }
        #expect(viewModel.score.value == "14 - 0")
        ann.onePointMove()
        #expect(viewModel.isFinished.value)
        #expect(viewModel.winner.value == .home)
        #expect(viewModel.isPaused.value)
        #expect(viewModel.summary.value.isFinished)
        let refused = ann.makeMove(.foul)
        #expect(
            refused
                == .rejected(
                    id: "#local-10", failure: CommandFailure(WireErrorCode(.gameFinished), refused!.failureMessage)))
        #expect(ann.foulMoveCount.value == "0")
        viewModel.undo()
        #expect(!viewModel.isFinished.value)
        #expect(viewModel.winner.value == nil)
        #expect(viewModel.score.value == "14 - 0")
    }

    @Test("fiba3x3: the time limit recorded by a tick decides the game")
    func timeLimit() {
        let clock = TestClock()
        let viewModel = Fixtures.viewModel(rules: .fiba3x3, clock: clock)
        viewModel.start()
        viewModel.awayPlayers[0].onePointMove()
        clock.advance(600_000)
        #expect(viewModel.nextTickDeadline(after: clock.now.advanced(byMilliseconds: -1)) == clock.now)
        clock.advance(5)
        let batch = viewModel.tick(now: clock.now)
        #expect(viewModel.isFinished.value)
        #expect(viewModel.winner.value == .away)
        #expect(viewModel.time.value == "10:00.0")
        #expect(viewModel.clock.value.elapsedMs == 600_000)
        #expect(batch.events.map(\.kind) == [.timeLimitReached])
        #expect(batch.reply == nil)
    }

    @Test(
        "a refused command changes nothing and grows no revision",
        arguments: [
            GameCommand.undo(id: "u1"), .pauseClock(id: "p1"), .move("home-7", .onePoint, id: "m1"),
        ])
    func refusals(command: GameCommand) {
        let viewModel = Fixtures.viewModel()
        var heard = 0
        viewModel.revision.bind { _ in heard += 1 }
        let before = viewModel.game
        guard case .rejected(let id, _) = viewModel.handle(command) else {
            Issue.record("accepted \(command)")
            return
        }
        #expect(id == command.id)
        #expect(viewModel.game == before)
        #expect(heard == 0)
    }
}

extension CommandReply {
    var failureMessage: String {
        if case .rejected(_, let failure) = self { return failure.message }
        return ""
    }
}
