/// Why a game setup was refused; `field` names the input at fault so a form can show the error beside it.
public enum GameSetupError: Error, Sendable, Hashable {
    case emptyTeamName(TeamSide)
    case teamNameTooLong(TeamSide, limit: Int)
    /// The roster has `count` players; the rules allow `allowed`.
    case wrongPlayerCount(TeamSide, count: Int, allowed: ClosedRange<Int>)
    case emptyPlayerName(TeamSide, index: Int)
    case playerNameTooLong(TeamSide, index: Int, limit: Int)
    /// The number is not one or two digits.
    case invalidPlayerNumber(TeamSide, index: Int, number: String)
    /// Another player of the team already wears this number.
    case duplicatePlayerNumber(TeamSide, index: Int, number: String)
    /// The colour is not `#RRGGBB`.
    case invalidColor(TeamSide, String)
    /// The short name is not 2–4 letters A–Z.
    case invalidShortName(TeamSide, String)
    /// The starters are not as many distinct roster indexes as the rules put on court (or the rules have no
    /// substitutions, so everybody plays).
    case invalidStarters(TeamSide, [Int])

    /// The input at fault: `homeTeam`, `awayPlayers`, `homePlayers[1]`, `homeColor`, `awayShort`, …
    public var field: String {
        switch self {
        case .emptyTeamName(let side), .teamNameTooLong(let side, _):
            return "\(side.rawValue)Team"
        case .wrongPlayerCount(let side, _, _):
            return "\(side.rawValue)Players"
        case .emptyPlayerName(let side, let index), .playerNameTooLong(let side, let index, _),
            .invalidPlayerNumber(let side, let index, _), .duplicatePlayerNumber(let side, let index, _):
            return "\(side.rawValue)Players[\(index)]"
        case .invalidColor(let side, _):
            return "\(side.rawValue)Color"
        case .invalidShortName(let side, _):
            return "\(side.rawValue)Short"
        case .invalidStarters(let side, _):
            return "\(side.rawValue)Starters"
        }
    }
}
