/// When a game ends and who wins it.
///
/// In regulation a team wins as soon as it has at least `targetScore` points and leads by at least `winBy`.
/// With a `timeLimitMs`, when that much game-clock time has run the team ahead wins; a tie goes to overtime, which
/// the first team to score `Rules.overtimePointsToWin` points in it wins (the target no longer applies there, as in
/// FIBA 3x3 rule 6.4). Values are validated on creation, so every `Rules` is playable.
public struct Rules: Sendable, Hashable {
    /// Where the rules come from; `custom` carries its numbers in the other fields.
    public enum Preset: String, Sendable, Hashable, Codable, CaseIterable {
        case pickup
        case fiba3x3
        case custom
    }

    /// Points a team must score in overtime to win it (FIBA 3x3: "the first team to score two points").
    public static let overtimePointsToWin = 2
    /// The highest target score or margin a custom game may set: far above any real game, low enough that a typo
    /// (an extra zero or two) is caught.
    public static let maxScore = 999
    /// The longest time limit a custom game may set (24 h): far above any real game, and it keeps the clock
    /// arithmetic far away from overflow.
    public static let maxTimeLimitMs: Int64 = 24 * 60 * 60 * 1000

    public let preset: Preset
    /// Points a team needs to win in regulation.
    public let targetScore: Int
    /// The lead a team needs over the other when it reaches the target.
    public let winBy: Int
    /// Game-clock milliseconds after which the team ahead wins, or nil for an untimed game.
    public let timeLimitMs: Int64?

    private init(preset: Preset, targetScore: Int, winBy: Int, timeLimitMs: Int64?) {
        self.preset = preset
        self.targetScore = targetScore
        self.winBy = winBy
        self.timeLimitMs = timeLimitMs
    }

    /// The tutorial's game and the default: first to 15 with a lead of at least 2, no time limit.
    public static let pickup = Rules(preset: .pickup, targetScore: 15, winBy: 2, timeLimitMs: nil)

    /// FIBA 3x3: first to 21, or the team ahead after 10:00 of game clock; a tie then goes to overtime.
    public static let fiba3x3 = Rules(preset: .fiba3x3, targetScore: 21, winBy: 1, timeLimitMs: 10 * 60 * 1000)

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

    /// The winner given the current score and, once the time limit was reached, the score at that moment;
    /// nil while the game goes on.
    public func winner(score: ScoreLine, scoreAtTimeLimit: ScoreLine?) -> TeamSide? {
        guard let atLimit = scoreAtTimeLimit else {
            guard let leader = score.leader else { return nil }
            let lead = score[leader] - score[leader.opponent]
            return score[leader] >= targetScore && lead >= winBy ? leader : nil
        }
        if let leader = atLimit.leader { return leader }
        for side in TeamSide.allCases where score[side] - atLimit[side] >= Self.overtimePointsToWin {
            return side
        }
        return nil
    }
}

extension Rules: CustomStringConvertible {
    /// Reads as a lobby would show it: "first to 21 (win by 1), 10:00 limit".
    public var description: String {
        var text = "first to \(targetScore) (win by \(winBy))"
        if let timeLimitMs {
            let seconds = timeLimitMs / 1000
            let secondsText = seconds % 60 < 10 ? "0\(seconds % 60)" : "\(seconds % 60)"
            text += ", \(seconds / 60):\(secondsText) limit"
        }
        return text
    }
}
