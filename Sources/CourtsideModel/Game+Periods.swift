extension Game {
    /// Records the end of the period at `instant`, which `pendingTimeLimit` returned: the clocks stop there; the
    /// score is kept when this period could decide the game; then the winner is decided, or the next period begins.
    mutating func reachTimeLimit(at instant: Timestamp) -> GameEvent {
        stopClocks(at: instant)
        return endPeriod(recording: .timeLimitReached, commandID: nil, at: instant)
    }

    /// Ends the period by hand (`endPeriod`, accepted for a timed period only): the clocks stop, the game clock shows
    /// the period's length, and the rest is what the time limit does.
    mutating func endPeriodByHand(commandID: CommandID, at: Timestamp) -> GameEvent {
        // `rejection(of:at:)` refused untimed periods.
        guard let limit = periodLengthMs else { preconditionFailure("Invalid state: ending an untimed period") }
        stopClocks(at: at)
        clock.set(elapsedMs: limit, at: at)
        return endPeriod(recording: .endPeriod, commandID: commandID, at: at)
    }

    /// Records the end of the current period as `kind`, with the clocks already stopped at its end.
    private mutating func endPeriod(recording kind: GameEvent.Kind, commandID: CommandID?, at instant: Timestamp)
        -> GameEvent
    {
        lastEndedPeriod = period
        let event = append(kind, commandID: commandID, at: instant)
        if rules.decides(period: period) {
            decidingEnds.append(DecidingEnd(sequence: event.sequence, score: score))
        }
        decideWinner(at: instant)
        return event
    }

    /// Derives the winner again from the score. A finished game's clocks stop (they stay stopped on a reopen); an
    /// undecided game whose period has ended goes on to the next period.
    mutating func decideWinner(at: Timestamp) {
        winner = rules.winner(score: score, decidingEnds: decidingEnds.map(\.score))
        if winner != nil {
            stopClocks(at: at)
        } else if lastEndedPeriod == period {
            beginPeriod(period + 1, at: at)
        }
    }

    /// Starts `next`: a timed period gets a fresh stopped clock (an untimed overtime runs on from where regulation
    /// stopped, as before periods existed); team fouls, timeouts and the shot clock start again as the rules say.
    private mutating func beginPeriod(_ next: Int, at: Timestamp) {
        let regulationPeriods = rules.periodCount
        let previousWindow = rules.teamFouls?.window(period: period, regulationPeriods: regulationPeriods)
        period = next
        periodScores.append(ScoreLine())
        if rules.periodLengthMs(next) != nil {
            // Those on court played to the end of the period; they start the next one at 0.
            let ended = clock.accumulatedMs
            for (player, entered) in enteredAtMs {
                bankedPlayedMs[player, default: 0] += max(0, ended - entered)
                enteredAtMs[player] = 0
            }
            clock = GameClock(resetAt: at)
        }
        if let teamFoulRules = rules.teamFouls,
            teamFoulRules.window(period: next, regulationPeriods: regulationPeriods) != previousWindow
        {
            teamFouls = TeamPair(both: 0)
        }
        if let allowance = rules.timeouts?.allowance(beginning: next, regulationPeriods: regulationPeriods) {
            timeoutsLeft = TeamPair(both: allowance)
        }
        if let fullMs = rules.shotClock?.lengthMs, shotClock?.isEnabled == true {
            shotClock?.enable(fullMs: fullMs, at: at)
        }
    }
}
