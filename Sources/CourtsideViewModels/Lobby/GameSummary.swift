import CourtsideModel

/// One game as the lobby lists it. A plain value, so a game on one loop can hand it to a lobby on another.
public struct GameSummary: Equatable, Sendable {
    public var id: GameID
    public var homeTeam: String
    public var awayTeam: String
    /// `#RRGGBB` and 2–4 letters, as the game's document has them (docs/protocol.md, "Creating a game").
    public var homeColor: String
    public var awayColor: String
    public var homeShort: String
    public var awayShort: String
    /// `"3 - 2"`.
    public var score: String
    public var homeScore: Int
    public var awayScore: Int
    public var isFinished: Bool
    /// Being played: started (a command was accepted) and not finished.
    public var isLive: Bool
    public var winner: TeamSide?
    /// The name of the venue that relays the game (docs/relay.md), nil for the node's own games: the server sets it,
    /// the game itself does not know where it is relayed.
    public var venue: String?

    public init(game: Game) {
        self.id = game.id
        self.homeTeam = game.homeTeam.name
        self.awayTeam = game.awayTeam.name
        self.homeColor = game.homeTeam.color
        self.awayColor = game.awayTeam.color
        self.homeShort = game.homeTeam.shortName
        self.awayShort = game.awayTeam.shortName
        self.score = game.score.description
        self.homeScore = game.homeScore
        self.awayScore = game.awayScore
        self.isFinished = game.isFinished
        self.isLive = !game.events.isEmpty && !game.isFinished
        self.winner = game.winner
    }
}
