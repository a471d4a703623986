extension Game {
    /// Records a move as a new play and counts it, or, when `pendingUntil` is given, keeps it waiting for the
    /// other scorer until then, counting nothing.
    mutating func recordPlay(
        player: PlayerID, move: PlayerMove, commandID: CommandID, at: Timestamp, pendingUntil: Timestamp? = nil
    ) -> GameEvent {
        // `rejection(of:at:)` refused unknown players.
        guard let side = setup.side(of: player) else { preconditionFailure("Invalid state: no \(player)") }
        let sequence = events.count + 1
        var play = Play(
            number: plays.count + 1, sequence: sequence, commandID: commandID, period: period,
            elapsedMs: elapsedMs(at: at), at: at, lineup: TeamPair(home: lineup(.home), away: lineup(.away)),
            enteredBy: issuer, player: player, team: side, move: move)
        if let pendingUntil {
            play.check = .pending(confirmBy: pendingUntil)
            awaiting.append(play.number)
        }
        plays.append(play)
        undoable.append(.play(play.number))
        if pendingUntil == nil { countIn(play: play.number, at: at) }
        return append(.move(player: player, move: move), commandID: commandID, at: at)
    }

    /// Counts a play that was just recorded or confirmed, with what its counting sets off: the possession a 10th
    /// team foul gives in 3x3, and the winner.
    mutating func countIn(play number: Int, at: Timestamp) {
        let play = plays[number - 1]
        count(play, sign: 1)
        // FIBA 3x3 rule 15.3: from the 10th team foul the other team also gets the ball.
        if play.move.isPlayerFoul, rules.tracksPossession, let from = rules.teamFouls?.possessionFrom,
            teamFouls[play.team] >= from
        {
            possession = play.team.opponent
        }
        decideWinner(at: at)
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

    /// The move an undo by `member` (nil: the scorer token) reverts: the latest undoable move; with dual
    /// confirmation, the latest that `member` entered or confirmed, so that one scorer's undo never takes back
    /// what only the other scorer entered.
    func undoTarget(by member: CrewMemberID?) -> Undoable? {
        guard rules.dualConfirmation != nil else { return undoable.last }
        return undoable.last { undoable in
            switch undoable {
            case .play(let number):
                let play = plays[number - 1]
                return play.enteredBy == member || play.check == .confirmed(by: member)
            case .teamAction(let index):
                return events[teamActions[index].sequence - 1].member == member
            }
        }
    }

    /// Reverts the move an undo by `member` takes back and returns the sequence of the event that recorded it.
    mutating func undoLatest(by member: CrewMemberID?) -> Int {
        // `rejection(of:at:)` refused an undo with nothing left to undo.
        guard let latest = undoTarget(by: member) else { preconditionFailure("Invalid state: undo with no move") }
        let sequence = sequence(of: latest)
        switch latest {
        case .play(let number):
            strike(play: number)
        case .teamAction(let index):
            undoable.removeAll { $0 == latest }
            teamActions[index].isDeleted = true
            teamMoveCounts[teamActions[index].team][teamActions[index].move] -= 1
        }
        return sequence
    }

    /// Takes a play out of the record (an undo or a deletion).
    mutating func strike(play number: Int) {
        if plays[number - 1].isCounted { count(plays[number - 1], sign: -1) }
        plays[number - 1].isDeleted = true
        undoable.removeAll { $0 == .play(number) }
        // A pending play taken back waits no more: the other scorer's entry, if any comes, starts a new play.
        awaiting.removeAll { $0 == number }
    }

    /// Rewrites a play: its old effect goes, its new one comes, in one step.
    mutating func correct(play number: Int, player: PlayerID, move: PlayerMove) {
        // `rejection(of:at:)` refused unknown players.
        guard let side = setup.side(of: player) else { preconditionFailure("Invalid state: no \(player)") }
        // A pending play is corrected without counting: it counts once confirmed, as corrected.
        let counted = plays[number - 1].isCounted
        if counted { count(plays[number - 1], sign: -1) }
        plays[number - 1].player = player
        plays[number - 1].team = side
        plays[number - 1].move = move
        plays[number - 1].isEdited = true
        if counted { count(plays[number - 1], sign: 1) }
    }

    /// The players of `side` on court now: those the substitutions left there, or the whole roster when the rules
    /// have no substitutions.
    func lineup(_ side: TeamSide) -> Set<PlayerID> {
        rules.roster.onCourt == nil ? Set(team(side).players.map(\.id)) : onCourt[side]
    }

    /// Adds (`sign` 1) or removes (-1) everything `play` counts for: the score, the period's score, the player's
    /// count, the plus-minus of those on court, the scores at the ends of later deciding periods, and the team
    /// fouls of the current foul window.
    mutating func count(_ play: Play, sign: Int) {
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
