extension Game {
    /// Records a move as a new play and counts it.
    mutating func recordPlay(player: PlayerID, move: PlayerMove, commandID: CommandID, at: Timestamp) -> GameEvent {
        // `rejection(of:at:)` refused unknown players.
        guard let side = setup.side(of: player) else { preconditionFailure("Invalid state: no \(player)") }
        let sequence = events.count + 1
        let play = Play(
            number: plays.count + 1, sequence: sequence, commandID: commandID, period: period,
            elapsedMs: elapsedMs(at: at), at: at, lineup: TeamPair(home: lineup(.home), away: lineup(.away)),
            enteredBy: issuer, player: player, team: side, move: move)
        plays.append(play)
        undoable.append(.play(play.number))
        count(play, sign: 1)
        // FIBA 3x3 rule 15.3: from the 10th team foul the other team also gets the ball.
        if move.isPlayerFoul, rules.tracksPossession, let from = rules.teamFouls?.possessionFrom,
            teamFouls[side] >= from
        {
            possession = side.opponent
        }
        decideWinner(at: at)
        return append(.move(player: player, move: move), commandID: commandID, at: at)
    }

    /// Records a team move and counts it.
    mutating func recordTeamAction(team: TeamSide, move: TeamMove, commandID: CommandID, at: Timestamp) -> GameEvent {
        let action = TeamAction(
            sequence: events.count + 1, period: period, elapsedMs: elapsedMs(at: at), team: team, move: move)
        undoable.append(.teamAction(teamActions.count))
        teamActions.append(action)
        teamMoveCounts[team][move] += 1
        return append(.teamMove(team: team, move: move), commandID: commandID, at: at)
    }

    /// Reverts the latest undoable move (an undo) and returns the sequence of the event that recorded it.
    mutating func undoLatest() -> Int {
        // `rejection(of:at:)` refused an undo with nothing left to undo.
        guard let latest = undoable.last else { preconditionFailure("Invalid state: undo with no move") }
        let sequence = sequence(of: latest)
        switch latest {
        case .play(let number):
            strike(play: number)
        case .teamAction(let index):
            undoable.removeLast()
            teamActions[index].isDeleted = true
            teamMoveCounts[teamActions[index].team][teamActions[index].move] -= 1
        }
        return sequence
    }

    /// Takes a play out of the record (an undo or a deletion).
    mutating func strike(play number: Int) {
        count(plays[number - 1], sign: -1)
        plays[number - 1].isDeleted = true
        undoable.removeAll { $0 == .play(number) }
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

    /// The players of `side` on court now: those the substitutions left there, or the whole roster when the rules
    /// have no substitutions.
    func lineup(_ side: TeamSide) -> Set<PlayerID> {
        rules.roster.onCourt == nil ? Set(team(side).players.map(\.id)) : onCourt[side]
    }

    /// Adds (`sign` 1) or removes (-1) everything `play` counts for: the score, the period's score, the player's
    /// count, the plus-minus of those on court, the scores at the ends of later deciding periods, and the team
    /// fouls of the current foul window.
    private mutating func count(_ play: Play, sign: Int) {
        let points = play.move.points * sign
        score[play.team] += points
        periodScores[play.period - 1][play.team] += points
        moveCounts[play.player, default: MoveCounts()][play.move] += sign
        if points != 0 {
            for player in play.lineup[play.team] { plusMinus[player, default: 0] += points }
            for player in play.lineup[play.team.opponent] { plusMinus[player, default: 0] -= points }
        }
        for index in decidingEnds.indices where play.sequence < decidingEnds[index].sequence {
            decidingEnds[index].score[play.team] += points
        }
        // FIBA art. 41.1.1: every foul of a player is a team foul.
        if play.move.isPlayerFoul, let teamFoulRules = rules.teamFouls,
            teamFoulRules.window(period: play.period, regulationPeriods: rules.periodCount)
                == teamFoulRules.window(period: period, regulationPeriods: rules.periodCount)
        {
            teamFouls[play.team] += sign
        }
    }
}
