/// What a player did, as in the tutorial's `PlayerInGameMove`; the raw values are the wire's move names.
///
/// The tutorial's five keep their meaning: `onePoint` and `twoPoints` are made field goals worth that many points
/// (inside and beyond the arc in pickup and FIBA 3x3, FIBA 3x3 rules art. 5), `rebound` a rebound of unknown kind,
/// `foul` a personal foul. The others complete a FIBA box score: field goals and free throws made and missed by
/// value, offensive and defensive rebounds, steals, blocks, turnovers and the foul types of the FIBA Official
/// Basketball Rules (offensive: a personal foul by the team with the ball, art. 34; technical, art. 36;
/// unsportsmanlike, art. 37; disqualifying, art. 38). Which moves a game takes depends on its rules
/// (`Rules.allows(_:)`).
public enum PlayerMove: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case onePoint
    case twoPoints
    case assist
    case rebound
    case foul
    case threePoints
    /// A made free throw: 1 point in every rules (FIBA art. 16.1.2; FIBA 3x3 rules art. 5).
    case freeThrow
    case onePointMissed
    case twoPointsMissed
    case threePointsMissed
    case freeThrowMissed
    case offensiveRebound
    case defensiveRebound
    case steal
    case block
    case turnover
    case offensiveFoul
    case technicalFoul
    case unsportsmanlikeFoul
    case disqualifyingFoul

    /// The points the move adds to its team's score.
    public var points: Int {
        switch self {
        case .onePoint, .freeThrow: return 1
        case .twoPoints: return 2
        case .threePoints: return 3
        default: return 0
        }
    }

    /// The value of the field goal the move attempted (made or missed), or nil when it is not a field goal.
    public var fieldGoalValue: Int? {
        switch self {
        case .onePoint, .onePointMissed: return 1
        case .twoPoints, .twoPointsMissed: return 2
        case .threePoints, .threePointsMissed: return 3
        default: return nil
        }
    }

    /// Whether the move is a free throw, made or missed.
    public var isFreeThrow: Bool { self == .freeThrow || self == .freeThrowMissed }

    /// Whether the move is a shot (field goal or free throw) that went in.
    public var isMadeShot: Bool { points > 0 }

    /// Whether the move is a foul charged to the player: each counts among the player's fouls and as a team foul
    /// (FIBA art. 41.1.1: personal, technical, unsportsmanlike and disqualifying fouls by a player are team fouls).
    public var isPlayerFoul: Bool {
        switch self {
        case .foul, .offensiveFoul, .technicalFoul, .unsportsmanlikeFoul, .disqualifyingFoul: return true
        default: return false
        }
    }

    public var description: String { rawValue }
}
