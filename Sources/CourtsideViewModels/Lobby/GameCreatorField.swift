import CourtsideModel

/// An input of the new-game form; the description is the name a page or a JSON request uses for it, the same as
/// the model's `GameSetupError.field` (`homeTeam`, `homePlayers[1]`, …) and `RulesError.Field`.
public enum GameCreatorField: Hashable, Sendable, CustomStringConvertible {
    case homeTeam
    case awayTeam
    /// The player (name and number) at an index (0…11) of a team.
    case player(TeamSide, Int)
    /// A team's roster as a whole (its size).
    case roster(TeamSide)
    /// A team's colour, `#RRGGBB` (docs/protocol.md, "Creating a game").
    case color(TeamSide)
    /// A team's short name, 2–4 letters (docs/protocol.md, "Creating a game").
    case short(TeamSide)
    /// The indexes of a team's starters (rules with substitutions).
    case starters(TeamSide)
    case preset
    case targetScore
    case winBy
    case timeLimit
    /// `rules.confirmation` and `rules.confirmWindowMs` (two scorers who confirm each other).
    case confirmation
    case confirmWindowMs

    public var description: String {
        switch self {
        case .homeTeam: "homeTeam"
        case .awayTeam: "awayTeam"
        case .player(let side, let index): "\(side.rawValue)Players[\(index)]"
        case .roster(let side): "\(side.rawValue)Players"
        case .color(let side): "\(side.rawValue)Color"
        case .short(let side): "\(side.rawValue)Short"
        case .starters(let side): "\(side.rawValue)Starters"
        case .preset: "preset"
        case .targetScore: "targetScore"
        case .winBy: "winBy"
        case .timeLimit: "timeLimit"
        case .confirmation: "confirmation"
        case .confirmWindowMs: "confirmWindowMs"
        }
    }
}
