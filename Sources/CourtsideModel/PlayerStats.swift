/// One player's box score line, derived from their moves, minutes and plus-minus.
///
/// Field goals are counted by value (`onePoint` is a field goal worth 1 inside the arc in pickup and FIBA 3x3; it
/// counts in the field goals but in neither the two- nor the three-pointers). `rebounds` counts the three rebound
/// moves. `efficiency` is FIBA's: PTS + REB + AST + STL + BLK − missed field goals − missed free throws − TOV.
public struct PlayerStats: Sendable, Hashable {
    public var points = 0
    public var fieldGoalsMade = 0
    public var fieldGoalsAttempted = 0
    public var twoPointersMade = 0
    public var twoPointersAttempted = 0
    public var threePointersMade = 0
    public var threePointersAttempted = 0
    public var freeThrowsMade = 0
    public var freeThrowsAttempted = 0
    public var offensiveRebounds = 0
    public var defensiveRebounds = 0
    public var rebounds = 0
    public var assists = 0
    public var steals = 0
    public var blocks = 0
    public var turnovers = 0
    /// Every foul charged to the player (personal, offensive, technical, unsportsmanlike, disqualifying).
    public var fouls = 0
    public var technicalFouls = 0
    public var unsportsmanlikeFouls = 0
    public var plusMinus = 0
    /// Game-clock milliseconds played (at the instant the statistics were read).
    public var playedMs: Int64 = 0
    public var fouledOut = false
    public var disqualified = false

    public init() {}

    /// The line of a player with `counts`, `playedMs` and `plusMinus` under `rules`.
    public init(counts: MoveCounts, playedMs: Int64, plusMinus: Int, rules: PlayerFoulRules?) {
        points = counts.points
        fieldGoalsMade = counts.total { $0.fieldGoalValue != nil && $0.isMadeShot }
        fieldGoalsAttempted = counts.total { $0.fieldGoalValue != nil }
        twoPointersMade = counts[.twoPoints]
        twoPointersAttempted = counts[.twoPoints] + counts[.twoPointsMissed]
        threePointersMade = counts[.threePoints]
        threePointersAttempted = counts[.threePoints] + counts[.threePointsMissed]
        freeThrowsMade = counts[.freeThrow]
        freeThrowsAttempted = counts[.freeThrow] + counts[.freeThrowMissed]
        offensiveRebounds = counts[.offensiveRebound]
        defensiveRebounds = counts[.defensiveRebound]
        rebounds = counts[.rebound] + offensiveRebounds + defensiveRebounds
        assists = counts[.assist]
        steals = counts[.steal]
        blocks = counts[.block]
        turnovers = counts[.turnover]
        fouls = counts.total(where: \.isPlayerFoul)
        technicalFouls = counts[.technicalFoul]
        unsportsmanlikeFouls = counts[.unsportsmanlikeFoul]
        self.plusMinus = plusMinus
        self.playedMs = playedMs
        fouledOut = rules?.isFouledOut(counts) ?? false
        disqualified = rules?.isDisqualified(counts) ?? false
    }

    /// Whole seconds played (never negative).
    public var secondsPlayed: Int { Int(max(0, playedMs) / 1000) }

    /// FIBA's efficiency.
    public var efficiency: Int {
        points + rebounds + assists + steals + blocks - (fieldGoalsAttempted - fieldGoalsMade)
            - (freeThrowsAttempted - freeThrowsMade) - turnovers
    }

    /// Adds `other`'s counts (a team's totals; the flags become "any").
    public mutating func add(_ other: PlayerStats) {
        points += other.points
        fieldGoalsMade += other.fieldGoalsMade
        fieldGoalsAttempted += other.fieldGoalsAttempted
        twoPointersMade += other.twoPointersMade
        twoPointersAttempted += other.twoPointersAttempted
        threePointersMade += other.threePointersMade
        threePointersAttempted += other.threePointersAttempted
        freeThrowsMade += other.freeThrowsMade
        freeThrowsAttempted += other.freeThrowsAttempted
        offensiveRebounds += other.offensiveRebounds
        defensiveRebounds += other.defensiveRebounds
        rebounds += other.rebounds
        assists += other.assists
        steals += other.steals
        blocks += other.blocks
        turnovers += other.turnovers
        fouls += other.fouls
        technicalFouls += other.technicalFouls
        unsportsmanlikeFouls += other.unsportsmanlikeFouls
        plusMinus += other.plusMinus
        playedMs += other.playedMs
        fouledOut = fouledOut || other.fouledOut
        disqualified = disqualified || other.disqualified
    }
}

/// A team's box score: the sums of its players' lines, plus what no player is credited with.
public struct TeamStats: Sendable, Hashable {
    /// The sums of the players' lines (minutes and plus-minus summed too).
    public var players: PlayerStats
    public var teamRebounds: Int
    public var teamTurnovers: Int
    /// Technical fouls charged to the head coach for their own behaviour ("C").
    public var coachTechnicals: Int
    /// Technical fouls charged to the head coach for the bench's behaviour ("B").
    public var benchTechnicals: Int
    public var coachDisqualified: Bool
}

extension Game {
    /// `player`'s box score line as of `now`, or nil for an unknown player.
    public func stats(for player: PlayerID, at now: Timestamp) -> PlayerStats? {
        stats(for: player, playedMs: playedMs(player, at: now))
    }

    /// `player`'s box score line with the minutes as of the game clock's latest reading (`clock.accumulatedMs`, the
    /// elapsed time when it last started or stopped): it changes with commands, never as time passes, so a
    /// document can carry it and a page adds the running clock's time for those on court.
    public func statsAtClockReading(for player: PlayerID) -> PlayerStats? {
        stats(for: player, playedMs: playedMs(player, atElapsed: clock.accumulatedMs))
    }

    /// `side`'s totals as of `now`.
    public func teamStats(_ side: TeamSide, at now: Timestamp) -> TeamStats {
        teamStats(side) { stats(for: $0, at: now) }
    }

    /// `side`'s totals with the minutes as of the clock's latest reading (see `statsAtClockReading(for:)`).
    public func teamStatsAtClockReading(_ side: TeamSide) -> TeamStats {
        teamStats(side) { statsAtClockReading(for: $0) }
    }

    /// Game-clock milliseconds `player` has played at `now`.
    public func playedMs(_ player: PlayerID, at now: Timestamp) -> Int64 {
        playedMs(player, atElapsed: elapsedMs(at: now))
    }

    /// Game-clock milliseconds `player` played when the current period's clock read `elapsed`. May be negative
    /// for a player who came on while the clock ran, read at a reading before they came on.
    public func playedMs(_ player: PlayerID, atElapsed elapsed: Int64) -> Int64 {
        let banked = bankedPlayedMs[player] ?? 0
        guard let entered = enteredAtMs[player] else { return banked }
        return banked + elapsed - entered
    }

    /// Whether `player` is on court now (every player when the rules have no substitutions).
    public func isOnCourt(_ player: PlayerID) -> Bool {
        enteredAtMs[player] != nil
    }

    /// Whether `player` may still get moves and come on court: not fouled out, not disqualified.
    public func isEligible(_ player: PlayerID) -> Bool {
        guard let foulRules = rules.playerFouls, let counts = moveCounts[player] else { return true }
        return !foulRules.isFouledOut(counts) && !foulRules.isDisqualified(counts)
    }

    /// `side`'s team move counts.
    public func teamMoves(_ side: TeamSide) -> TeamMoveCounts {
        teamMoveCounts[side]
    }

    private func stats(for player: PlayerID, playedMs: Int64) -> PlayerStats? {
        guard let counts = moveCounts[player] else { return nil }
        return PlayerStats(
            counts: counts, playedMs: playedMs, plusMinus: plusMinus[player] ?? 0, rules: rules.playerFouls)
    }

    private func teamStats(_ side: TeamSide, line: (PlayerID) -> PlayerStats?) -> TeamStats {
        var total = PlayerStats()
        for player in team(side).players {
            if let stats = line(player.id) { total.add(stats) }
        }
        let moves = teamMoveCounts[side]
        return TeamStats(
            players: total, teamRebounds: moves.rebounds, teamTurnovers: moves[.turnover],
            coachTechnicals: moves[.coachTechnical], benchTechnicals: moves[.benchTechnical],
            coachDisqualified: rules.playerFouls?.isCoachDisqualified(moves) ?? false)
    }
}
