import CourtsideModel

/// An instant `ms` milliseconds after the tests' epoch.
func at(_ ms: Int64) -> Timestamp {
    Timestamp(milliseconds: ms)
}

let homeAce = PlayerID(side: .home, index: 0)
let homeTwo = PlayerID(side: .home, index: 1)
let awayAce = PlayerID(side: .away, index: 0)
let awayTwo = PlayerID(side: .away, index: 2)

func makeSetup(_ rules: Rules = .pickup, id: GameID = "g1") -> GameSetup {
    try! GameSetup(
        id: id, homeTeam: "Hawks", homePlayers: ["Ann", "Bo", "Cy"], awayTeam: "Owls",
        awayPlayers: ["Di", "Ed", "Fay"], rules: rules)
}

func makeGame(_ rules: Rules = .pickup, id: GameID = "g1") -> Game {
    Game(setup: makeSetup(rules, id: id))
}

extension Game {
    /// Applies `action` under a fresh command id (unique because accepted events only grow).
    @discardableResult
    mutating func run(_ action: GameCommand.Action, at ms: Int64 = 0) throws(GameError) -> CommandOutcome {
        try apply(GameCommand(id: CommandID("t\(events.count + 1)"), action: action), at: at(ms))
    }

    @discardableResult
    mutating func move(_ player: PlayerID, _ move: PlayerMove, at ms: Int64 = 0) throws(GameError) -> CommandOutcome {
        try run(.move(player: player, move: move), at: ms)
    }

    /// Scores one-pointers, alternating sides while both need points, until the score reads `home`-`away`.
    /// The caller picks a target score no rule finishes on the way to.
    mutating func scoreUntil(home: Int, away: Int, at ms: Int64 = 0) throws(GameError) {
        while score.home < home || score.away < away {
            if score.home < home, score.home - score.away <= 0 || score.away >= away {
                try move(homeAce, .onePoint, at: ms)
            } else {
                try move(awayAce, .onePoint, at: ms)
            }
        }
    }

    /// The game as a journal would store and read it back: the same setup, every event replayed.
    func rebuilt() throws -> Game {
        try Game(setup: setup, replaying: events)
    }
}
