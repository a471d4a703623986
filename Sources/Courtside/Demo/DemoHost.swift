import CourtsideModel

/// A game the demo created: its id and the page to watch it on.
public struct DemoGame: Sendable, Equatable {
    public let id: GameID
    /// The spectator link as the server gave it (a path, or an absolute URL).
    public let spectatorLink: String

    public init(id: GameID, spectatorLink: String) {
        self.id = id
        self.spectatorLink = spectatorLink
    }
}

/// The two teams of a demo game.
public struct DemoTeams: Sendable, Equatable {
    /// Names whose default short names differ (`HAR`, `VAL`), so a scoreboard tells the teams apart.
    public var homeTeam = "Harbor Hawks"
    public var homePlayers = ["Ava", "Ben", "Cleo"]
    public var awayTeam = "Valley Owls"
    public var awayPlayers = ["Dev", "Eli", "Fay"]
    /// Untimed and short (15, win by 2), so a new game starts every minute or two.
    public var rules: Rules = .pickup

    public init() {}

    /// The setup the server builds from these teams, for the demo's own copy of the game.
    func setup(id: GameID) throws(GameSetupError) -> GameSetup {
        try GameSetup(
            id: id, homeTeam: homeTeam, homePlayers: homePlayers, awayTeam: awayTeam, awayPlayers: awayPlayers,
            rules: rules)
    }
}

/// What the demo needs of the server: the two paths every client uses, creating a game and submitting a command.
/// `CourtsideApplication` provides them; tests provide an in-memory game.
public protocol DemoHost: Sendable {
    /// Creates a game as `POST /api/games` would.
    func createDemoGame(_ teams: DemoTeams, completion: @escaping @Sendable (Result<DemoGame, any Error>) -> Void)
    /// Submits one wire command as `POST /api/games/{id}/commands` would; `completion` gets the ack or error JSON.
    func submitDemoCommand(_ command: [UInt8], to game: GameID, completion: @escaping @Sendable ([UInt8]) -> Void)
}
