/// Why a game setup was refused; `field` names the input at fault so a form can show the error beside it.
public enum GameSetupError: Error, Sendable, Hashable {
    case emptyTeamName(TeamSide)
    case teamNameTooLong(TeamSide, limit: Int)
    case wrongPlayerCount(TeamSide, count: Int, expected: Int)
    case emptyPlayerName(TeamSide, index: Int)
    case playerNameTooLong(TeamSide, index: Int, limit: Int)

    /// The input at fault: `homeTeam`, `awayPlayers`, `homePlayers[1]`, …
    public var field: String {
        switch self {
        case .emptyTeamName(let side), .teamNameTooLong(let side, _):
            return "\(side.rawValue)Team"
        case .wrongPlayerCount(let side, _, _):
            return "\(side.rawValue)Players"
        case .emptyPlayerName(let side, let index), .playerNameTooLong(let side, let index, _):
            return "\(side.rawValue)Players[\(index)]"
        }
    }
}
