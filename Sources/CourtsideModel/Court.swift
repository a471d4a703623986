/// The id of a court (`court-1`, …): a venue's screens follow a court, whatever game is on it (issue 13 §1).
public struct CourtID: StringIdentifier {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}

/// One court of a venue: its name, the game on it now, the pickup queue and the winners' streak. A plain value:
/// every change is a new value that the server stores whole and publishes as one patch of the court's document.
public struct Court: Sendable, Hashable, Codable {
    /// The longest court name, in characters (a display's title line).
    public static let maxNameLength = 40
    /// Teams waiting at once: a long evening's list, small enough to bound what every court message carries.
    public static let maxQueueLength = 32

    public let id: CourtID
    public private(set) var name: String
    /// The game on the court now (live or just finished), nil between games.
    public private(set) var game: GameID?
    /// Teams that called "next", first in line first.
    public private(set) var queue: [QueuedTeam]
    /// The team that won the last game(s) on this court and stays on, with its wins in a row.
    public private(set) var streak: Streak?

    /// A court with a validated name and nothing on it.
    public init(id: CourtID, name: String) throws(CourtError) {
        self.id = id
        self.name = try Self.validatedName(name)
        self.game = nil
        self.queue = []
        self.streak = nil
    }

    /// Puts `game` on the court (nil clears it: "next game soon").
    public mutating func put(_ game: GameID?) {
        self.game = game
    }

    /// Adds a team to the end of the queue.
    public mutating func enqueue(_ team: QueuedTeam) throws(CourtError) {
        guard queue.count < Self.maxQueueLength else { throw .queueFull(id, limit: Self.maxQueueLength) }
        queue.append(team)
    }

    /// The next pickup game: the winners of the finished game stay on against the first team in the queue, which
    /// leaves the queue. Returns the two teams (winners at home); the caller creates the game and puts it here.
    /// Winners who were already on extend their streak; new winners start one at 1.
    public mutating func next(winner: QueuedTeam) throws(CourtError) -> (home: QueuedTeam, away: QueuedTeam) {
        guard let challenger = queue.first else { throw .queueEmpty(id) }
        queue.removeFirst()
        let wins = streak.map { $0.team == winner ? $0.wins + 1 : 1 } ?? 1
        streak = Streak(team: winner, wins: wins)
        return (winner, challenger)
    }

    private static func validatedName(_ raw: String) throws(CourtError) -> String {
        let name = String(raw.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if name.isEmpty { throw .emptyName }
        if name.count > maxNameLength { throw .nameTooLong(limit: maxNameLength) }
        return name
    }
}

/// A team waiting for a pickup game: a name and three players (the pickup rules' roster).
public struct QueuedTeam: Sendable, Hashable, Codable {
    public let name: String
    public let players: [String]

    /// Validates the names with the same rules as a game's (`GameSetup`): trimmed, non-empty, at most 40
    /// characters, `Team.playerCount` players.
    public init(name: String, players: [String]) throws(GameSetupError) {
        let setup = try GameSetup(
            id: "queue", homeTeam: name, homePlayers: players, awayTeam: "Other",
            awayPlayers: Array(repeating: "Player", count: Team.playerCount))
        self.name = setup.homeTeam.name
        self.players = setup.homeTeam.players.map(\.name)
    }

    /// The team of a finished game's side (its name and players), to stay on court.
    public init(_ team: Team) {
        self.name = team.name
        self.players = team.players.map(\.name)
    }
}

/// The team that stays on court and how many games in a row it has won there.
public struct Streak: Sendable, Hashable, Codable {
    public let team: QueuedTeam
    public let wins: Int
}

/// Why a court operation was refused.
public enum CourtError: Error, Sendable, Hashable {
    case emptyName
    case nameTooLong(limit: Int)
    /// The queue has `limit` teams already.
    case queueFull(CourtID, limit: Int)
    /// "Next game" with nobody waiting.
    case queueEmpty(CourtID)
}
