extension Game {
    /// Records a move as a new play and counts it.
    mutating func recordPlay(player: PlayerID, move: PlayerMove, commandID: CommandID, at: Timestamp) -> GameEvent {
        // `rejection(of:at:)` refused unknown players.
        guard let side = setup.side(of: player) else { preconditionFailure("Invalid state: no \(player)") }
        let sequence = events.count + 1
        let play = Play(
            number: plays.count + 1, sequence: sequence, commandID: commandID, period: period,
            elapsedMs: elapsedMs(at: at), at: at, player: player, team: side, move: move)
        plays.append(play)
        undoablePlays.append(play.number)
        count(play, sign: 1)
        // FIBA 3x3 rule 15.3: from the 10th team foul the other team also gets the ball.
        if move == .foul, rules.tracksPossession, let from = rules.teamFouls?.possessionFrom, teamFouls[side] >= from {
            possession = side.opponent
        }
        decideWinner(at: at)
        return append(.move(player: player, move: move), commandID: commandID, at: at)
    }

    /// Takes a play out of the record (an undo or a deletion).
    mutating func strike(play number: Int) {
        count(plays[number - 1], sign: -1)
        plays[number - 1].isDeleted = true
        undoablePlays.removeAll { $0 == number }
    }

    /// Rewrites a play: its old effect goes, its new one comes, in one step.
    mutating func correct(play number: Int, player: PlayerID, move: PlayerMove) {
        // `rejection(of:at:)` refused unknown players.
        guard let side = setup.side(of: player) else { preconditionFailure("Invalid state: no \(player)") }
        count(plays[number - 1], sign: -1)
        plays[number - 1].player = player
        plays[number - 1].team = side
        plays[number - 1].move = move
        plays[number - 1].isEdited = true
        count(plays[number - 1], sign: 1)
    }

    /// Adds (`sign` 1) or removes (-1) everything `play` counts for: the score, the player's count, the scores
    /// at the ends of later deciding periods, and the team fouls of the current foul window.
    private mutating func count(_ play: Play, sign: Int) {
        let points = play.move.points * sign
        score[play.team] += points
        moveCounts[play.player, default: MoveCounts()][play.move] += sign
        for index in decidingEnds.indices where play.sequence < decidingEnds[index].sequence {
            decidingEnds[index].score[play.team] += points
        }
        if play.move == .foul, let teamFoulRules = rules.teamFouls,
            teamFoulRules.window(period: play.period, regulationPeriods: rules.periodCount)
                == teamFoulRules.window(period: period, regulationPeriods: rules.periodCount)
        {
            teamFouls[play.team] += sign
        }
    }
}
