/// One side of a game: a name and its players, whose ids are `<side>-<index>`.
public struct Team: Sendable, Hashable, Codable {
    /// Players per team by default: the tutorial's (and FIBA 3x3's) three on court. Rules allow more
    /// (`RosterRules`); ids stay positional.
    public static let playerCount = 3

    public let side: TeamSide
    public let name: String
    public let players: [Player]
    /// The colour and short name given at creation (docs/protocol.md, "Creating a game").
    public let branding: TeamBranding
    /// The indexes of the players who start on court, as given at creation; nil for the default (the first
    /// players listed).
    public let starters: [Int]?

    /// A team whose names, numbers and starters were already validated by `GameSetup`.
    init(
        side: TeamSide, name: String, entries: [RosterEntry], branding: TeamBranding = .none, starters: [Int]? = nil
    ) {
        self.side = side
        self.name = name
        self.branding = branding
        self.starters = starters
        self.players = entries.enumerated().map { index, entry in
            Player(id: PlayerID(side: side, index: index), name: entry.name, number: entry.number)
        }
    }

    /// `#RRGGBB`: the given colour or the side's default.
    public var color: String { branding.color ?? TeamBranding.defaultColor(side) }

    /// Two to four letters: the given short name or one made from the name.
    public var shortName: String { branding.short ?? TeamBranding.defaultShortName(name: name, side: side) }

    /// The player with `id`, or nil when the team has none.
    public func player(_ id: PlayerID) -> Player? {
        players.first { $0.id == id }
    }

    /// The players who start on court when the rules put `onCourt` of them there.
    func starterIDs(onCourt: Int) -> [PlayerID] {
        (starters ?? Array(players.indices.prefix(onCourt))).map { players[$0].id }
    }

    /// The roster as it was given.
    var entries: [RosterEntry] {
        players.map { RosterEntry(name: $0.name, number: $0.number) }
    }
}
