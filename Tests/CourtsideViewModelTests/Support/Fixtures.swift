import CourtsideModel
import CourtsideViewModels

/// A settable clock for the tutorial's argumentless buttons.
final class TestClock {
    var now: Timestamp

    init(_ milliseconds: Int64 = 1_000_000) {
        self.now = Timestamp(milliseconds: milliseconds)
    }

    func advance(_ milliseconds: Int64) {
        now = now.advanced(byMilliseconds: milliseconds)
    }
}

enum Fixtures {
    static func setup(id: GameID = "g1", rules: Rules = .pickup) -> GameSetup {
        try! GameSetup(
            id: id, homeTeam: "Lakers", homePlayers: ["Ann", "Bo", "Cy"], awayTeam: "Celtics",
            awayPlayers: ["Di", "Ed", "Flo"], rules: rules)
    }

    /// Six players a team: enough for every preset (5x5 needs five, and a bench to substitute from).
    static func setup(id: GameID, rules: Rules, playersPerTeam: Int) -> GameSetup {
        let names = (1...playersPerTeam).map { "P\($0)" }
        return try! GameSetup(
            id: id, homeTeam: "Lakers", homePlayers: names, awayTeam: "Celtics", awayPlayers: names, rules: rules)
    }

    static func viewModel(rules: Rules = .pickup, clock: TestClock = TestClock()) -> GameScoreboardEditorViewModel {
        GameScoreboardEditorViewModel(game: Game(setup: setup(rules: rules)), now: clock.now, clock: { clock.now })
    }

    static func move(_ player: PlayerID, _ move: PlayerMove, _ id: String) -> GameCommand {
        .move(player, move, id: CommandID(id))
    }
}
