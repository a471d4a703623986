import CourtsideModel

/// What the simulated scorer does next.
public enum DemoDecision: Sendable, Equatable {
    /// Send this command.
    case command(GameCommand.Action)
    /// The game is over: rest, then start another.
    case gameOver
}

/// The demo's scorer as a pure function: a game and a random draw give the next command.
///
/// It plays like a plausible scorer, not a fair one: it starts the clock, records shots made and missed, rebounds
/// by kind, assists, steals, blocks, turnovers and fouls in about a real game's proportions, sometimes pauses (a
/// time-out; while paused it may record a free throw, made or missed, before restarting) and sometimes undoes its
/// last move (a correction). The demo plays pickup rules, so field goals are worth 1 and 2. Every decision it makes is one the model accepts for that game, so a demo game
/// always reaches its winner. Randomness comes in as `draw`, so tests pick the branch they want.
public enum DemoScorer {
    /// Per cent of decisions on a running clock that pause it: a time-out now and then keeps `isPaused` on screen.
    public static let pausePercent: UInt64 = 4
    /// Per cent of decisions on a running clock that undo the last move, when there is one: the scorer's correction.
    public static let undoPercent: UInt64 = 5
    /// Per cent of decisions on a paused clock (after the first start) that record a free throw instead of
    /// restarting the clock.
    public static let freeThrowPercent: UInt64 = 30

    /// Moves on a running clock, with their weights (they add to 100): about a third score, so a pickup game to 15
    /// lasts a minute or two at one move a second; a miss is usually followed, some moves later, by a rebound.
    static let moveWeights: [(PlayerMove, UInt64)] = [
        (.twoPoints, 16), (.onePoint, 12), (.twoPointsMissed, 10), (.onePointMissed, 8), (.defensiveRebound, 12),
        (.offensiveRebound, 4), (.assist, 12), (.steal, 4), (.block, 3), (.turnover, 6), (.foul, 9),
        (.offensiveFoul, 2), (.rebound, 2),
    ]
    /// Per cent of free throws that go in (about a real league's average).
    static let freeThrowMadePercent: UInt64 = 75

    /// The next decision for `game`. `draw` is 64 random bits: bits 0-15 choose the kind of decision, bits 16-31
    /// the move, bits 32-63 the player.
    public static func next(for game: Game, draw: UInt64) -> DemoDecision {
        if game.isFinished { return .gameOver }
        let kind = (draw & 0xFFFF) % 100
        let moveRoll = ((draw >> 16) & 0xFFFF) % 100
        let players = game.homeTeam.players + game.awayTeam.players
        let player = players[Int((draw >> 32) % UInt64(players.count))].id

        if !game.isClockRunning {
            // The first command of a game starts the clock: a board that starts with a free throw looks wrong.
            if game.events.isEmpty || kind >= freeThrowPercent { return .command(.clock(.start)) }
            return .command(
                .move(player: player, move: moveRoll < freeThrowMadePercent ? .freeThrow : .freeThrowMissed))
        }
        if kind < pausePercent { return .command(.clock(.pause)) }
        if kind < pausePercent + undoPercent && game.canUndo { return .command(.undo) }
        return .command(.move(player: player, move: move(for: moveRoll)))
    }

    /// The move whose weight band holds `roll` (0-99).
    static func move(for roll: UInt64) -> PlayerMove {
        var threshold: UInt64 = 0
        for (move, weight) in moveWeights {
            threshold += weight
            if roll < threshold { return move }
        }
        preconditionFailure("Invalid state: move weights add to \(threshold), below roll \(roll)")
    }
}
