/// Two scorers who confirm each other (`Rules.dualConfirmation`; docs/protocol.md, "Two scorers who confirm each
/// other"), as two paper scorers keeping one sheet each would.
///
/// - The scorers are the game's own scorer token (one scorer, `enteredBy` nil) and every crew member with the role
///   `scorer`; each is one identity. A move that scores points or is a foul, entered by a scorer, is a *pending*
///   play: it counts nothing until another scorer enters it too.
/// - An entry answers the oldest pending play of the same team entered by another scorer (entries are matched in
///   order per team, so two quick baskets confirm one each): the same player and move confirm it (it counts from
///   then on); anything else makes a *conflict* holding both entries. With no such play it is a new pending play.
/// - When the window closes (`confirmBy`, the play's instant plus `confirmWindowMs`, server time) with no answer, the
///   play becomes a conflict with no second entry (`confirmationExpired`, recorded at that exact instant, like a
///   period end). An answer must come before `confirmBy`.
/// - A scorer resolves a conflict (`resolve`): keep the first entry, the second, both (two plays), or neither.
/// - An undo by a scorer takes back the latest move that scorer entered or confirmed; `editPlay` and `deletePlay`
///   correct pending and confirmed plays at once (a pending play stays pending, as corrected), and refuse a
///   conflict (`play_in_conflict`): only `resolve` settles it.
/// Moves that score nothing and are not fouls, team moves, and any move from a member of another role count at once.
extension Game {
    /// Something only time changes, due at an instant: what `catchUp(to:)` records.
    enum Deadline: Sendable, Hashable {
        case timeLimit(Timestamp)
        case confirmation(play: Int, Timestamp)
    }

    /// The plays the scorers disagree on and nobody resolved yet, oldest first.
    public var conflicts: [Play] { plays.filter(\.hasConflict) }

    /// The plays waiting for the other scorer, oldest first.
    public var pendingPlays: [Play] { awaiting.map { plays[$0 - 1] } }

    /// Whether `member` (nil: the game's scorer token) is one of the scorers.
    func isScorer(_ member: CrewMemberID?) -> Bool {
        guard let member else { return true }
        return crew.first { $0.id == member }?.role == .scorer
    }

    /// The first deadline due by `now`, or nil: the period end, or the earliest window that closed (the period end
    /// first at the same instant, so that the log's order never depends on a tie).
    func dueDeadline(at now: Timestamp) -> Deadline? {
        let limit = pendingTimeLimit(at: now)
        guard let number = awaiting.first, case .pending(let confirmBy) = plays[number - 1].check, confirmBy <= now,
            limit.map({ confirmBy < $0 }) ?? true
        else { return limit.map { .timeLimit($0) } }
        return .confirmation(play: number, confirmBy)
    }

    /// When the oldest pending play's window closes, or nil.
    var nextConfirmationDeadline: Timestamp? {
        guard let number = awaiting.first, case .pending(let confirmBy) = plays[number - 1].check else { return nil }
        return confirmBy
    }

    /// Records a deadline `dueDeadline` returned.
    mutating func record(_ deadline: Deadline) -> GameEvent {
        switch deadline {
        case .timeLimit(let instant):
            return reachTimeLimit(at: instant)
        case .confirmation(let number, let instant):
            awaiting.removeAll { $0 == number }
            plays[number - 1].check = .conflict(second: nil)
            undoable.removeAll { $0 == .play(number) }
            return append(.confirmationExpired(play: number), commandID: nil, at: instant)
        }
    }

    /// Records a player's move as the issuer entered it: at once, as a pending play, or as the answer to the other
    /// scorer's pending play.
    mutating func enter(player: PlayerID, move: PlayerMove, commandID: CommandID, at: Timestamp) -> GameEvent {
        guard let confirmation = rules.dualConfirmation, move.points > 0 || move.isPlayerFoul, isScorer(issuer),
            let side = setup.side(of: player)
        else { return recordPlay(player: player, move: move, commandID: commandID, at: at) }
        guard let number = awaiting.first(where: { plays[$0 - 1].team == side && plays[$0 - 1].enteredBy != issuer })
        else {
            return recordPlay(
                player: player, move: move, commandID: commandID, at: at,
                pendingUntil: Timestamp(milliseconds: at.milliseconds + confirmation.windowMs))
        }
        awaiting.removeAll { $0 == number }
        let play = plays[number - 1]
        if play.player == player && play.move == move {
            plays[number - 1].check = .confirmed(by: issuer)
            countIn(play: number, at: at)
        } else {
            let second = PlayEntry(team: side, player: player, move: move, by: issuer, sequence: events.count + 1)
            plays[number - 1].check = .conflict(second: second)
            undoable.removeAll { $0 == .play(number) }
        }
        return append(.move(player: player, move: move), commandID: commandID, at: at)
    }

    /// Why `resolve` of play `number` keeping `keep` would be refused, or nil.
    func resolveRejection(play number: Int, keep: ConflictResolution) -> GameError? {
        if let error = playRejection(number) { return error }
        guard case .conflict(let second) = plays[number - 1].check else { return .notInConflict(number) }
        if second == nil && (keep == .second || keep == .both) { return .noSecondEntry(number) }
        return nil
    }

    /// Settles a conflict `resolveRejection` accepted.
    mutating func resolve(play number: Int, keep: ConflictResolution, commandID: CommandID, at: Timestamp) {
        guard case .conflict(let second) = plays[number - 1].check else {
            preconditionFailure("Invalid state: resolving play \(number), which is not in conflict")
        }
        plays[number - 1].check = .resolved(keep: keep, by: issuer, second: second)
        switch keep {
        case .first:
            countIn(play: number, at: at)
        case .second, .both:
            // `resolveRejection` refused these without a second entry.
            guard let second else { preconditionFailure("Invalid state: no second entry for play \(number)") }
            if keep == .second {
                plays[number - 1].player = second.player
                plays[number - 1].move = second.move
                countIn(play: number, at: at)
                return
            }
            countIn(play: number, at: at)
            // The second entry was another basket: a play of its own, at the same moment of the game.
            let first = plays[number - 1]
            var extra = Play(
                number: plays.count + 1, sequence: second.sequence, commandID: commandID, period: first.period,
                elapsedMs: first.elapsedMs, at: first.at, lineup: first.lineup, enteredBy: second.by,
                player: second.player, team: second.team, move: second.move)
            extra.check = .resolved(keep: keep, by: issuer, second: nil)
            plays.append(extra)
            countIn(play: extra.number, at: at)
        case .neither:
            plays[number - 1].isDeleted = true
        }
    }
}
