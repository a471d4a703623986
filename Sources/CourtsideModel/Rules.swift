/// When a game ends and who wins it, and which of a scoreboard's features the game uses: a plain value.
///
/// - Untimed rules (`pickup`, untimed `custom`): a team wins as soon as it has at least `targetScore` points and
///   leads by at least `winBy`.
/// - One timed period (`fiba3x3`, timed `custom`): the target still ends the game in regulation; when
///   `timeLimitMs` of game clock has run the team ahead wins, and a tie goes to an untimed overtime that the first
///   team to score `Rules.overtimePointsToWin` points in it wins (the target no longer applies there: FIBA 3x3 rule
///   6.4).
/// - Several timed periods (`fiba5x5`): no target; the team ahead when the last regulation period ends wins, and a
///   tie brings overtimes of `overtimeLengthMs` until one ends with a leader (FIBA 5x5 art. 8).
///
/// Values are validated on creation, so every `Rules` is playable.
public struct Rules: Sendable, Hashable {
    /// Where the rules come from; `custom` carries its numbers in the other fields.
    public enum Preset: String, Sendable, Hashable, Codable, CaseIterable {
        case pickup
        case fiba3x3
        case fiba5x5
        case custom
    }

    /// Points a team must score in an untimed overtime to win it (FIBA 3x3: "the first team to score two points").
    public static let overtimePointsToWin = 2
    /// The highest target score or margin a custom game may set: far above any real game, low enough that a typo
    /// (an extra zero or two) is caught.
    public static let maxScore = 999
    /// The longest time limit a custom game may set (24 h): far above any real game, and it keeps the clock
    /// arithmetic far away from overflow.
    public static let maxTimeLimitMs: Int64 = 24 * 60 * 60 * 1000

    public let preset: Preset
    /// Points a team needs to win in regulation, or nil when only the clock ends the game (5x5).
    public let targetScore: Int?
    /// The lead a team needs over the other when it reaches the target.
    public let winBy: Int
    /// Game-clock milliseconds of one regulation period (of all of regulation when there is one period), or nil for
    /// an untimed game.
    public let timeLimitMs: Int64?
    /// Regulation periods: 4 in 5x5, otherwise 1.
    public let periodCount: Int
    /// The length of each overtime, or nil for an untimed overtime decided by `overtimePointsToWin`.
    public let overtimeLengthMs: Int64?
    public let shotClock: ShotClockRules?
    public let teamFouls: TeamFoulRules?
    public let timeouts: TimeoutRules?
    /// Whether the possession (who has the ball; the alternating arrow) is kept.
    public let tracksPossession: Bool
    public let roster: RosterRules
    /// Whether field goals are worth 1 and 2 points (inside and beyond the arc: pickup, FIBA 3x3 rules art. 5,
    /// custom) rather than 2 and 3 (FIBA art. 16.1.2).
    public let scoresOnesAndTwos: Bool
    /// Foul-outs and disqualifications, or nil when fouls never put a player out (pickup, custom).
    public let playerFouls: PlayerFoulRules?
    /// Two scorers who confirm each other's scoring moves, or nil (the default: one scorer's entry counts at once).
    public internal(set) var dualConfirmation: DualConfirmation?

    private init(
        preset: Preset, targetScore: Int?, winBy: Int, timeLimitMs: Int64?, periodCount: Int = 1,
        overtimeLengthMs: Int64? = nil, shotClock: ShotClockRules? = nil, teamFouls: TeamFoulRules? = nil,
        timeouts: TimeoutRules? = nil, tracksPossession: Bool = false, roster: RosterRules = .standard,
        scoresOnesAndTwos: Bool = true, playerFouls: PlayerFoulRules? = nil
    ) {
        self.preset = preset
        self.targetScore = targetScore
        self.winBy = winBy
        self.timeLimitMs = timeLimitMs
        self.periodCount = periodCount
        self.overtimeLengthMs = overtimeLengthMs
        self.shotClock = shotClock
        self.teamFouls = teamFouls
        self.timeouts = timeouts
        self.tracksPossession = tracksPossession
        self.roster = roster
        self.scoresOnesAndTwos = scoresOnesAndTwos
        self.playerFouls = playerFouls
    }

    /// The tutorial's game and the default: first to 15 with a lead of at least 2, no time limit.
    public static let pickup = Rules(preset: .pickup, targetScore: 15, winBy: 2, timeLimitMs: nil)

    /// FIBA 3x3: first to 21, or the team ahead after 10:00 of game clock; a tie then goes to overtime. A 12-second
    /// shot clock, the penalty from the 7th team foul (possession too from the 10th), one timeout per team.
    public static let fiba3x3 = Rules(
        preset: .fiba3x3, targetScore: 21, winBy: 1, timeLimitMs: 10 * 60 * 1000,
        shotClock: ShotClockRules(lengthMs: 12_000),
        teamFouls: TeamFoulRules(penaltyFrom: 7, possessionFrom: 10, resetsEachPeriod: false),
        timeouts: .perGame(1), tracksPossession: true, playerFouls: .fiba3x3)

    /// FIBA 5x5: four 10:00 quarters and 5:00 overtimes until the tie is broken, a 24-second shot clock with the
    /// 14-second reset, team fouls per quarter with the penalty from the 5th, timeouts 2 + 3 (+1 per overtime),
    /// rosters of 5 to 12 with five on court.
    public static let fiba5x5 = Rules(
        preset: .fiba5x5, targetScore: nil, winBy: 1, timeLimitMs: 10 * 60 * 1000, periodCount: 4,
        overtimeLengthMs: 5 * 60 * 1000, shotClock: ShotClockRules(lengthMs: 24_000, shortResetMs: 14_000),
        teamFouls: TeamFoulRules(penaltyFrom: 5, resetsEachPeriod: true),
        timeouts: .perHalf(firstHalf: 2, secondHalf: 3, perOvertime: 1), tracksPossession: true,
        roster: RosterRules(players: 5...RosterRules.maxPlayers, onCourt: 5), scoresOnesAndTwos: false,
        playerFouls: .fiba5x5)

    /// Rules of your own, validated: `targetScore` and `winBy` in 1…`maxScore`, `timeLimitMs` (when given) in
    /// 1…`maxTimeLimitMs`.
    public static func custom(targetScore: Int, winBy: Int = 1, timeLimitMs: Int64? = nil) throws(RulesError) -> Rules {
        guard (1...maxScore).contains(targetScore) else { throw .targetScoreOutOfRange(targetScore) }
        guard (1...maxScore).contains(winBy) else { throw .winByOutOfRange(winBy) }
        if let timeLimitMs, !(1...maxTimeLimitMs).contains(timeLimitMs) {
            throw .timeLimitOutOfRange(timeLimitMs)
        }
        return Rules(preset: .custom, targetScore: targetScore, winBy: winBy, timeLimitMs: timeLimitMs)
    }

    /// Whether a game under these rules records `move`: field goals of the values its court has (no three-pointer
    /// where the arc is worth 2, no one-point field goal in 5x5).
    public func allows(_ move: PlayerMove) -> Bool {
        switch move.fieldGoalValue {
        case 1: scoresOnesAndTwos
        case 3: !scoresOnesAndTwos
        default: true
        }
    }

    /// Whether a game under these rules records `move`: fouls charged to a coach need a coach (5x5).
    public func allows(_ move: TeamMove) -> Bool {
        !move.isCoachFoul || playerFouls?.hasCoach == true
    }

    /// Whether the game clock ends periods (and so the game has periods and maybe overtime).
    public var isTimed: Bool { timeLimitMs != nil }

    /// The game-clock length of `period` (1-based), or nil when it is untimed.
    public func periodLengthMs(_ period: Int) -> Int64? {
        period <= periodCount ? timeLimitMs : overtimeLengthMs
    }

    /// Whether the end of `period` can decide the game (the last regulation period and every overtime).
    public func decides(period: Int) -> Bool {
        period >= periodCount
    }

    /// The winner given the current score and, once the time limit was reached, the score at that moment;
    /// nil while the game goes on.
    public func winner(score: ScoreLine, scoreAtTimeLimit: ScoreLine?) -> TeamSide? {
        winner(score: score, decidingEnds: scoreAtTimeLimit.map { [$0] } ?? [])
    }

    /// The winner given the current score and the scores at the ends of the periods that could decide the game
    /// (regulation's end, then each overtime's), oldest first; nil while the game goes on.
    public func winner(score: ScoreLine, decidingEnds: [ScoreLine]) -> TeamSide? {
        guard let regulation = decidingEnds.first else {
            guard let targetScore, let leader = score.leader else { return nil }
            let lead = score[leader] - score[leader.opponent]
            return score[leader] >= targetScore && lead >= winBy ? leader : nil
        }
        if let leader = decidingEnds.lazy.compactMap(\.leader).first { return leader }
        guard overtimeLengthMs == nil else { return nil }
        for side in TeamSide.allCases where score[side] - regulation[side] >= Self.overtimePointsToWin {
            return side
        }
        return nil
    }
}

extension Rules: CustomStringConvertible {
    /// Reads as a lobby would show it: "first to 21 (win by 1), 10:00 limit"; "4 × 10:00, 5:00 overtimes".
    public var description: String {
        func minutes(_ ms: Int64) -> String {
            let seconds = ms / 1000
            let secondsText = seconds % 60 < 10 ? "0\(seconds % 60)" : "\(seconds % 60)"
            return "\(seconds / 60):\(secondsText)"
        }
        var parts: [String] = []
        if let targetScore { parts.append("first to \(targetScore) (win by \(winBy))") }
        if let timeLimitMs {
            parts.append(
                periodCount == 1 ? "\(minutes(timeLimitMs)) limit" : "\(periodCount) × \(minutes(timeLimitMs))")
        }
        if let overtimeLengthMs { parts.append("\(minutes(overtimeLengthMs)) overtimes") }
        return parts.joined(separator: ", ")
    }
}
