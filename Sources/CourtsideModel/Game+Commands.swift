extension Game {
    /// Applies a scorer's command at `now` and returns what it did.
    ///
    /// A command id already accepted returns the original event and changes nothing (`isDuplicate`); reused for a
    /// different command it throws `commandIDReused`. When the running clock passed the time limit before `now`,
    /// the `timeLimitReached` event is recorded first, at the exact instant of the limit, and the command is
    /// judged after it (a move then counts in overtime, or is refused because the game is over).
    /// A rejected command throws and leaves the game untouched, including a time limit it passed: the owner records
    /// that with `advance(to:)`.
    @discardableResult
    public mutating func apply(_ command: GameCommand, at now: Timestamp) throws(GameError) -> CommandOutcome {
        if let sequence = acceptedCommands[command.id] {
            let accepted = events[sequence - 1]
            guard accepted.records(command) else { throw .commandIDReused(command.id, accepted: accepted) }
            return CommandOutcome(event: accepted, newEvents: [])
        }
        let at = effectiveTime(now)
        if let error = rejection(of: command.action, at: at) { throw error }
        var newEvents: [GameEvent] = []
        if let instant = pendingTimeLimit(at: at) {
            newEvents.append(reachTimeLimit(at: instant))
        }
        let event = perform(command, at: at)
        newEvents.append(event)
        return CommandOutcome(event: event, newEvents: newEvents)
    }

    /// Lets game time pass up to `now`: when the running clock has reached the rules' time limit, records
    /// `timeLimitReached` at the exact instant of the limit (the clock stops with the limit on it; the team ahead
    /// wins, or overtime begins on a tie) and returns it. Returns nil when nothing happened.
    @discardableResult
    public mutating func advance(to now: Timestamp) -> GameEvent? {
        guard let instant = pendingTimeLimit(at: effectiveTime(now)) else { return nil }
        return reachTimeLimit(at: instant)
    }

    /// `now`, or the latest event's instant when `now` is earlier: a game's log never goes back in time.
    func effectiveTime(_ now: Timestamp) -> Timestamp {
        guard let last = lastEventTime else { return now }
        return max(now, last)
    }

    /// The instant the running clock reached the time limit, when it did by `now` and it is not recorded yet.
    func pendingTimeLimit(at now: Timestamp) -> Timestamp? {
        guard let limit = rules.timeLimitMs, scoreAtTimeLimit == nil, clock.elapsedMs(at: now) >= limit else {
            return nil
        }
        return clock.instant(whenElapsedIs: limit)
    }

    /// Why `action` would be refused at `at` (after any pending time limit), or nil when it would be accepted.
    func rejection(of action: GameCommand.Action, at: Timestamp) -> GameError? {
        let limitPending = pendingTimeLimit(at: at) != nil
        // Reaching the limit stops the clock and decides the game as `Rules.winner` says for that score.
        let winnerThen = limitPending ? rules.winner(score: score, scoreAtTimeLimit: score) : winner
        let clockRunningThen = limitPending ? false : clock.isRunning
        switch action {
        case .move(let player, _):
            if setup.side(of: player) == nil { return .unknownPlayer(player) }
            if let winnerThen { return .moveAfterFinish(winner: winnerThen) }
        case .clock(.start):
            if let winnerThen { return .clockStartAfterFinish(winner: winnerThen) }
            if clockRunningThen { return .clockAlreadyRunning }
        case .clock(.pause):
            if !clockRunningThen { return .clockNotRunning }
        case .undo:
            if undoableMoves.isEmpty { return .nothingToUndo }
        }
        return nil
    }

    /// Records the time limit at `instant`, which `pendingTimeLimit` returned.
    mutating func reachTimeLimit(at instant: Timestamp) -> GameEvent {
        clock.pause(at: instant)
        scoreAtTimeLimit = score
        let event = append(.timeLimitReached, commandID: nil, at: instant)
        timeLimitSequence = event.sequence
        decideWinner(at: instant)
        return event
    }

    /// Performs a command that `rejection(of:at:)` accepted, with no pending time limit.
    mutating func perform(_ command: GameCommand, at: Timestamp) -> GameEvent {
        switch command.action {
        case .move(let player, let move):
            // `rejection(of:at:)` refused unknown players.
            guard let side = setup.side(of: player) else { preconditionFailure("Invalid state: no \(player)") }
            score[side] += move.points
            moveCounts[player, default: MoveCounts()][move] += 1
            let event = append(.move(player: player, move: move), commandID: command.id, at: at)
            undoableMoves.append(event.sequence)
            decideWinner(at: at)
            return event
        case .clock(let action):
            let changed = action == .start ? clock.start(at: at) : clock.pause(at: at)
            // `rejection(of:at:)` refused starting a running clock and pausing a stopped one.
            precondition(changed, "Invalid state: clock \(clock) cannot \(action)")
            return append(.clock(action), commandID: command.id, at: at)
        case .undo:
            // `rejection(of:at:)` refused an undo with no move left.
            guard let undone = undoableMoves.popLast(), case .move(let player, let move) = events[undone - 1].kind,
                let side = setup.side(of: player)
            else { preconditionFailure("Invalid state: undo with \(undoableMoves)") }
            score[side] -= move.points
            if let timeLimitSequence, undone < timeLimitSequence {
                scoreAtTimeLimit?[side] -= move.points
            }
            moveCounts[player, default: MoveCounts()][move] -= 1
            let event = append(.undo(undoes: undone), commandID: command.id, at: at)
            decideWinner(at: at)
            return event
        }
    }

    /// Derives the winner again from the score; a finished game's clock stops (it stays stopped on a reopen).
    private mutating func decideWinner(at: Timestamp) {
        winner = rules.winner(score: score, scoreAtTimeLimit: scoreAtTimeLimit)
        if winner != nil {
            clock.pause(at: at)
        }
    }

    private mutating func append(_ kind: GameEvent.Kind, commandID: CommandID?, at: Timestamp) -> GameEvent {
        let event = GameEvent(sequence: events.count + 1, at: at, commandID: commandID, kind: kind)
        events.append(event)
        if let commandID {
            acceptedCommands[commandID] = event.sequence
        }
        return event
    }
}
