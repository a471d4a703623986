extension Game {
    /// Applies a scorer's command at `now` and returns what it did.
    ///
    /// A command id already accepted returns the original event and changes nothing (`isDuplicate`); reused for a
    /// different command it throws `commandIDReused`. When the running clock passed the end of the period before
    /// `now`, the `timeLimitReached` event is recorded first, at the exact instant of the end, and the command is
    /// judged after it (a move then counts in the next period, or is refused because the game is over).
    /// A rejected command throws and leaves the game untouched, including a period end it passed: the owner records
    /// that with `advance(to:)`.
    ///
    /// `member` is the table-crew member who sent it (nil: the game's scorer token, which may do everything): a
    /// command outside the member's role, or from a revoked member, is refused before anything else is judged,
    /// except a retry of an accepted command id, which keeps its answer (the member may have been revoked since).
    @discardableResult
    public mutating func apply(
        _ command: GameCommand, by member: CrewMemberID? = nil, at now: Timestamp
    ) throws(GameError) -> CommandOutcome {
        if let sequence = acceptedCommands[command.id] {
            let accepted = events[sequence - 1]
            // With two scorers the same entry from the other scorer is a confirmation, never a retry: an id the
            // other scorer used is refused rather than answered with their event.
            guard accepted.records(command), rules.dualConfirmation == nil || accepted.member == member else {
                throw .commandIDReused(command.id, accepted: accepted)
            }
            return CommandOutcome(event: accepted, newEvents: [])
        }
        if let error = crewRejection(of: command.action, by: member) { throw error }
        let at = effectiveTime(now)
        guard dueDeadline(at: at) != nil else {
            if let error = rejection(of: command.action, by: member, at: at) { throw error }
            let event = perform(command, by: member, at: at)
            return CommandOutcome(event: event, newEvents: [event])
        }
        // Judge the command after the period end (or the windows that closed) on a copy, so that a refusal leaves
        // this game untouched.
        var next = self
        let passed = next.catchUp(to: at)
        if let error = next.rejection(of: command.action, by: member, at: at) { throw error }
        let event = next.perform(command, by: member, at: at)
        self = next
        return CommandOutcome(event: event, newEvents: passed + [event])
    }

    /// Lets game time pass up to `now`, recording the first thing time alone changed and returning it (nil when
    /// nothing did): when the running clock reached the end of the period, `timeLimitReached` at the exact instant
    /// of the end (the clocks stop; the next period begins, the team ahead wins, or overtime begins); when a window
    /// to confirm a play closed, `confirmationExpired`. `catchUp(to:)` records everything due.
    @discardableResult
    public mutating func advance(to now: Timestamp) -> GameEvent? {
        guard let due = dueDeadline(at: effectiveTime(now)) else { return nil }
        return record(due)
    }

    /// Lets game time pass up to `now`, recording everything time alone changed by then, oldest first.
    @discardableResult
    public mutating func catchUp(to now: Timestamp) -> [GameEvent] {
        var recorded: [GameEvent] = []
        let at = effectiveTime(now)
        while let due = dueDeadline(at: at) { recorded.append(record(due)) }
        return recorded
    }

    /// Reopens a game a scorer confirmed final (an administrator's decision): records `reopened` and returns it.
    @discardableResult
    public mutating func reopen(at now: Timestamp) throws(GameError) -> GameEvent {
        guard isLocked else { throw .notLocked }
        isLocked = false
        return append(.reopened, commandID: nil, at: effectiveTime(now))
    }

    /// `now`, or the latest event's instant when `now` is earlier: a game's log never goes back in time.
    func effectiveTime(_ now: Timestamp) -> Timestamp {
        guard let last = lastEventTime else { return now }
        return max(now, last)
    }

    /// The instant the running clock reached the end of the period, when it did by `now` and it is not recorded.
    func pendingTimeLimit(at now: Timestamp) -> Timestamp? {
        guard let deadline = timeLimitDeadline, deadline <= now else { return nil }
        return deadline
    }

    /// Why `action` from `member` would be refused at `at` (with nothing due, see `dueDeadline`), or nil when it
    /// would be accepted.
    func rejection(of action: GameCommand.Action, by member: CrewMemberID?, at: Timestamp) -> GameError? {
        if isLocked { return .gameLocked }
        switch action {
        case .move(let player, let move):
            if setup.side(of: player) == nil { return .unknownPlayer(player) }
            if let winner { return .moveAfterFinish(winner: winner) }
            if !rules.allows(move) { return .moveNotInRules(move) }
            if !isEligible(player) { return .playerNotEligible(player) }
        case .teamMove(_, let move):
            if let winner { return .moveAfterFinish(winner: winner) }
            if !rules.allows(move) { return .teamMoveNotInRules(move) }
        case .endPeriod:
            if let winner { return .afterFinish(winner: winner) }
            if periodLengthMs == nil { return .notInRules(.timedPeriods) }
        case .clock(.start):
            if let winner { return .clockStartAfterFinish(winner: winner) }
            if clock.isRunning { return .clockAlreadyRunning }
            if isUnderReview { return .underReview }
        case .review(.start):
            if isUnderReview { return .underReview }
        case .review(.end):
            if !isUnderReview { return .notUnderReview }
        case .clock(.pause):
            if !clock.isRunning { return .clockNotRunning }
        case .undo:
            if undoTarget(by: member) == nil { return .nothingToUndo }
        case .timeout(let side):
            guard rules.timeouts != nil else { return .notInRules(.timeouts) }
            if let winner { return .afterFinish(winner: winner) }
            if timeoutsLeft[side] == 0 { return .noTimeoutsLeft(side) }
        case .shotClock(let shotClockAction):
            return shotClockRejection(of: shotClockAction)
        case .possession:
            if !rules.tracksPossession { return .notInRules(.possession) }
        case .setClock(let elapsedMs):
            if let winner { return .afterFinish(winner: winner) }
            let allowed = 0...(periodLengthMs ?? Rules.maxTimeLimitMs)
            if !allowed.contains(elapsedMs) { return .timeOutOfRange(elapsedMs, allowed: allowed) }
        case .substitute(let team, let playerOut, let playerIn):
            guard rules.roster.onCourt != nil else { return .notInRules(.substitutions) }
            for player in [playerOut, playerIn] {
                guard let side = setup.side(of: player) else { return .unknownPlayer(player) }
                if side != team { return .wrongTeam(player, team: team) }
            }
            if !onCourt[team].contains(playerOut) { return .notOnCourt(playerOut) }
            if onCourt[team].contains(playerIn) { return .alreadyOnCourt(playerIn) }
            if !isEligible(playerIn) { return .playerNotEligible(playerIn) }
        case .editPlay(let number, let player, let move):
            if let error = playRejection(number) { return error }
            // A conflict is settled by `resolve` alone, so both scorers see one answer to it.
            if plays[number - 1].hasConflict { return .playInConflict(number) }
            if setup.side(of: player) == nil { return .unknownPlayer(player) }
            if !rules.allows(move) { return .moveNotInRules(move) }
        case .deletePlay(let number):
            if let error = playRejection(number) { return error }
            if plays[number - 1].hasConflict { return .playInConflict(number) }
        case .resolve(let number, let keep):
            return resolveRejection(play: number, keep: keep)
        case .final:
            // A locked game takes nothing, a resolve included: the scorers settle every play before they sign.
            let conflicts = plays.count(where: \.hasConflict)
            if !awaiting.isEmpty || conflicts > 0 {
                return .unconfirmedPlays(pending: awaiting.count, conflicts: conflicts)
            }
        }
        return nil
    }

    private func shotClockRejection(of action: ShotClockAction) -> GameError? {
        guard let rulesShotClock = rules.shotClock, let shotClock else { return .notInRules(.shotClock) }
        switch action {
        case .enable, .disable:
            return nil
        case .start, .pause, .reset, .set:
            guard shotClock.isEnabled else { return .shotClockOff }
        }
        switch action {
        case .start:
            if let winner { return .afterFinish(winner: winner) }
            if shotClock.isRunning { return .shotClockAlreadyRunning }
        case .pause:
            if !shotClock.isRunning { return .shotClockNotRunning }
        case .reset(let ms?):
            let allowed = 1...rulesShotClock.lengthMs
            if !allowed.contains(ms) { return .timeOutOfRange(ms, allowed: allowed) }
        case .set(let ms):
            let allowed = 0...rulesShotClock.lengthMs
            if !allowed.contains(ms) { return .timeOutOfRange(ms, allowed: allowed) }
        case .reset(nil), .enable, .disable:
            break
        }
        return nil
    }

    func playRejection(_ number: Int) -> GameError? {
        guard plays.indices.contains(number - 1) else { return .unknownPlay(number) }
        return plays[number - 1].isDeleted ? .playDeleted(number) : nil
    }

    /// Performs a command that `rejection(of:at:)` accepted, with no period end pending; the events it appends
    /// name `member`.
    mutating func perform(_ command: GameCommand, by member: CrewMemberID? = nil, at: Timestamp) -> GameEvent {
        issuer = member
        defer { issuer = nil }
        if let member { lastCommandAt[member] = at }
        let id = command.id
        switch command.action {
        case .move(let player, let move):
            return enter(player: player, move: move, commandID: id, at: at)
        case .clock(let action):
            if action == .start {
                clock.start(at: at)
                shotClock?.start(at: at)
            } else {
                stopClocks(at: at)
            }
            return append(.clock(action), commandID: id, at: at)
        case .undo:
            let sequence = undoLatest(by: member)
            decideWinner(at: at)
            return append(.undo(undoes: sequence), commandID: id, at: at)
        case .teamMove(let team, let move):
            return recordTeamAction(team: team, move: move, commandID: id, at: at)
        case .endPeriod:
            return endPeriodByHand(commandID: id, at: at)
        case .timeout(let side):
            timeoutsLeft[side] -= 1
            stopClocks(at: at)
        case .shotClock(let action):
            operateShotClock(action, at: at)
        case .possession(let side):
            possession = side
        case .setClock(let elapsedMs):
            clock.set(elapsedMs: elapsedMs, at: at)
        case .substitute(let team, let playerOut, let playerIn):
            let elapsed = elapsedMs(at: at)
            if let entered = enteredAtMs.removeValue(forKey: playerOut) {
                bankedPlayedMs[playerOut, default: 0] += max(0, elapsed - entered)
            }
            enteredAtMs[playerIn] = elapsed
            onCourt[team].remove(playerOut)
            onCourt[team].insert(playerIn)
        case .editPlay(let number, let player, let move):
            correct(play: number, player: player, move: move)
            decideWinner(at: at)
        case .deletePlay(let number):
            strike(play: number)
            decideWinner(at: at)
        case .final:
            isLocked = true
            stopClocks(at: at)
        case .resolve(let number, let keep):
            resolve(play: number, keep: keep, commandID: id, at: at)
        case .review(let action):
            // A review is watched on a stopped clock (FIBA art. 46.12, the instant replay system).
            isUnderReview = action == .start
            if isUnderReview { stopClocks(at: at) }
        }
        return append(GameEvent.Kind(recording: command.action), commandID: id, at: at)
    }

    private mutating func operateShotClock(_ action: ShotClockAction, at: Timestamp) {
        // `rejection(of:at:)` refused shot clock commands for rules without one.
        guard let fullMs = rules.shotClock?.lengthMs else { preconditionFailure("Invalid state: no shot clock") }
        switch action {
        case .start: shotClock?.start(at: at)
        case .pause: shotClock?.pause(at: at)
        case .reset(let ms): shotClock?.set(ms ?? fullMs, at: at)
        case .set(let ms): shotClock?.set(ms, at: at)
        case .enable: shotClock?.enable(fullMs: fullMs, at: at)
        case .disable: shotClock?.disable(at: at)
        }
    }

    /// Stops the game clock and the shot clock.
    mutating func stopClocks(at: Timestamp) {
        clock.pause(at: at)
        shotClock?.pause(at: at)
    }

    mutating func append(_ kind: GameEvent.Kind, commandID: CommandID?, at: Timestamp) -> GameEvent {
        let event = GameEvent(
            sequence: events.count + 1, at: at, commandID: commandID, kind: kind, by: commandID == nil ? nil : issuer)
        events.append(event)
        if let commandID {
            acceptedCommands[commandID] = event.sequence
        }
        return event
    }
}
