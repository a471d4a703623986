/// One side of a game: a name and its players, whose ids are `<side>-<index>`.
public struct Team: Sendable, Hashable, Codable {
    /// Players per team: the tutorial's (and FIBA 3x3's) three on court. Player ids are positional, so the count is
    /// fixed rather than configurable.
    public static let playerCount = 3

    public let side: TeamSide
    public let name: String
    public let players: [Player]

    /// A team whose names were already validated by `GameSetup`.
    init(side: TeamSide, name: String, playerNames: [String]) {
        self.side = side
        self.name = name
        self.players = playerNames.enumerated().map { index, name in
            Player(id: PlayerID(side: side, index: index), name: name)
        }
    }

    /// The player with `id`, or nil when the team has none.
    public func player(_ id: PlayerID) -> Player? {
        players.first { $0.id == id }
    }
}
