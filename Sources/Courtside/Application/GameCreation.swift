import CourtsideJournal
import CourtsideModel
import CourtsideViewModels

/// The body of `POST /api/games` (docs/protocol.md, "Creating a game"): the new-game form as JSON.
///
/// Both shapes are read: the protocol's flat one (`"homeTeam":"Lakers","homePlayers":[…]`) and the nested one
/// (`"homeTeam":{"name":"Lakers","players":[…]}`).
public struct GameCreationRequest: Sendable, Equatable {
    /// The request in the protocol's flat shape.
    public var json: JSONValue

    /// A request from its JSON body, either shape.
    public init(json: JSONValue) {
        var members = json.objectValue ?? [:]
        for side in ["home", "away"] {
            if let team = members["\(side)Team"]?.objectValue {
                members["\(side)Team"] = team["name"] ?? .null
                if members["\(side)Players"] == nil { members["\(side)Players"] = team["players"] ?? .null }
                if members["\(side)Color"] == nil, let color = team["color"] { members["\(side)Color"] = color }
                if members["\(side)Short"] == nil, let short = team["short"] { members["\(side)Short"] = short }
                if members["\(side)Starters"] == nil, let starters = team["starters"] {
                    members["\(side)Starters"] = starters
                }
            }
        }
        self.json = json.objectValue == nil ? json : .object(members)
    }

    /// A request from values (the demo scorer's).
    public init(
        homeTeam: String, homePlayers: [String], awayTeam: String, awayPlayers: [String],
        rules: JSONValue = ["preset": "pickup"]
    ) {
        self.json = [
            "homeTeam": .string(homeTeam), "homePlayers": .array(homePlayers.map { .string($0) }),
            "awayTeam": .string(awayTeam), "awayPlayers": .array(awayPlayers.map { .string($0) }), "rules": rules,
        ]
    }
}

/// A game just created: its id, its scorer token (shown once: only its digest is stored) and where to find it.
public struct CreatedGame: Sendable, Equatable {
    public let id: GameID
    public let scorerToken: String
    /// Paths (relative to the server's URL) of the spectator page, the scorer panel and the venue display.
    public let links: Links

    public struct Links: Sendable, Equatable {
        public let spectator: String
        public let scorer: String
        public let display: String
    }

    init(id: GameID, scorerToken: String) {
        self.id = id
        self.scorerToken = scorerToken
        let query = "?id=\(id.rawValue)"
        links = Links(spectator: "/game.html\(query)", scorer: "/score.html\(query)", display: "/display.html\(query)")
    }

    /// `{"id","scorerToken","links":{"spectator","scorer","display"}}`: the body of the 201 answer.
    public var json: JSONValue {
        [
            "id": .string(id.rawValue), "scorerToken": .string(scorerToken),
            "links": [
                "spectator": .string(links.spectator), "scorer": .string(links.scorer),
                "display": .string(links.display),
            ],
        ]
    }
}

/// Why a game was not created.
public enum GameCreationError: Error, Sendable, Equatable {
    /// The body is not a JSON object.
    case notAnObject
    /// Some inputs are wrong: the creator view model's error per field.
    case invalid(GameCreatorErrors)
    /// The journal refused or failed to store the game.
    case storage(JournalError)
    /// The server is shutting down.
    case shuttingDown
}
