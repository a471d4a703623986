import CourtsideModel

/// The `Dynamic`s of a ``GameScoreboardEditorViewModel`` that views bind (the tutorial's labels, the per-player
/// move editors and the revision), made on the first read of any of them.
///
/// A server's game is shown through its presenter, which reads the view model's frames, not its `Dynamic`s: until a
/// view binds one, they would only copy every value the frame holds (about 50 objects per game, a tenth of what an
/// unwatched game cost: docs/benchmarks.md, "Memory at league scale"). Made from the view model's current values, and
/// updated in the same order as when made eagerly, so a view that binds late sees what it would have seen.
/// Loop-confined, like its view model.
final class ScoreboardDynamics {
    let time: MutableDynamic<String>
    let score: MutableDynamic<String>
    let homeScore: MutableDynamic<Int>
    let awayScore: MutableDynamic<Int>
    let isFinished: MutableDynamic<Bool>
    let isPaused: MutableDynamic<Bool>
    let winner: MutableDynamic<TeamSide?>
    let clock: MutableDynamic<ClockData>
    let status: MutableDynamic<GameStatus>
    let stats: MutableDynamic<StatsData>
    let changedPlays: MutableDynamic<[PlayRow]>
    let conflicts: MutableDynamic<[Play]>
    let revision: MutableDynamic<Int>
    let homePlayers: [PlayerScoreboardMoveEditorViewModel]
    let awayPlayers: [PlayerScoreboardMoveEditorViewModel]

    /// The `Dynamic`s of `viewModel` as it shows now.
    init(of viewModel: GameScoreboardEditorViewModel) {
        let frame = viewModel.frame
        time = MutableDynamic(frame.time)
        score = MutableDynamic(frame.score)
        homeScore = MutableDynamic(frame.homeScore)
        awayScore = MutableDynamic(frame.awayScore)
        isFinished = MutableDynamic(frame.isFinished)
        isPaused = MutableDynamic(frame.isPaused)
        winner = MutableDynamic(frame.winner)
        clock = MutableDynamic(frame.clock)
        status = MutableDynamic(frame.status)
        stats = MutableDynamic(frame.stats)
        changedPlays = MutableDynamic(viewModel.latestPlayChanges)
        // Without dual confirmation the game has no conflicts and the frame none to show: empty either way.
        conflicts = MutableDynamic(frame.conflicts ?? [])
        revision = MutableDynamic(viewModel.revisionNumber)
        let game = viewModel.game
        let counts = frame.moveCounts
        let home = game.homeTeam.players
        homePlayers = home.enumerated().map {
            PlayerScoreboardMoveEditorViewModel(player: $1, counts: counts[$0], game: viewModel)
        }
        awayPlayers = game.awayTeam.players.enumerated().map {
            PlayerScoreboardMoveEditorViewModel(player: $1, counts: counts[home.count + $0], game: viewModel)
        }
    }

    /// Takes a batch's frame and play rows, in the order views have always heard them (the summary comes next, then
    /// ``finish(conflicts:revision:)``).
    func show(_ frame: GameFrame, changedPlays rows: [PlayRow]) {
        time.value = frame.time
        score.value = frame.score
        homeScore.value = frame.homeScore
        awayScore.value = frame.awayScore
        isFinished.value = frame.isFinished
        isPaused.value = frame.isPaused
        winner.value = frame.winner
        clock.value = frame.clock
        status.value = frame.status
        stats.value = frame.stats
        changedPlays.value = rows
        for (player, counts) in zip(homePlayers + awayPlayers, frame.moveCounts) {
            _ = player.refresh(from: counts)
        }
    }

    /// Takes the rest of a batch: its conflicts, then its revision (which closes it).
    func finish(conflicts plays: [Play], revision number: Int) {
        conflicts.value = plays
        revision.value = number
    }
}

@available(*, unavailable)
extension ScoreboardDynamics: Sendable {}
