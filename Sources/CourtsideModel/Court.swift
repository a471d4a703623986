/// The id of a court (`court-1`, …): a venue's screens follow a court, whatever game is on it (docs/protocol.md).
public struct CourtID: StringIdentifier {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}

/// How a team gets into a court's pickup queue. The queue shows on the venue's TVs, so strangers on the internet
/// must not be able to fill it: either the team proves it is in the hall (the join code on the court's display), or
/// the staff add it (the admin token).
public enum QueueJoining: String, Sendable, Hashable, Codable, CaseIterable {
    /// With the court's current join code (shown on the display, rotating), or the admin token.
    case code
    /// Only with the admin token: teams ask at the desk, the staff add them.
    case admin
}

/// One court of a venue: its name, the game on it now, the pickup queue and the winners' streak. A plain value:
/// every change is a new value that the server stores whole and publishes as one patch of the court's document.
///
/// Its size is bounded in bytes: names follow `DisplayName` (at most 160 bytes each), and the queue holds at most
/// `maxQueueLength` teams of `Team.playerCount` players, so the court's document stays under `maxDocumentBytes`.
public struct Court: Sendable, Hashable {
    /// The longest court name, in Unicode scalars (`DisplayName`).
    public static let maxNameLength = DisplayName.maxScalars
    /// Teams waiting at once: a long evening's list, small enough to bound what every court message carries.
    public static let maxQueueLength = 32
    /// What the court's document (COURT) can weigh at most, as JSON: the queue and the streak's team (33 teams of
    /// four names) at `DisplayName.maxBytes` each, plus the court's name, ids and punctuation. A test builds the
    /// largest court and checks it fits.
    public static let maxDocumentBytes = 32 * 1_024

    public let id: CourtID
    public private(set) var name: String
    /// The game on the court now (live or just finished), nil between games.
    public private(set) var game: GameID?
    /// Teams that called "next", first in line first.
    public private(set) var queue: [QueuedTeam]
    /// The team that won the last game(s) on this court and stays on, with its wins in a row.
    public private(set) var streak: Streak?
    /// How teams join the queue.
    public private(set) var joining: QueueJoining
    /// SHA-256 (lower-case hex) of the court's display key, which lets a display read the join code; nil when the
    /// court has none (then only the admin adds teams).
    public private(set) var displayKeySHA256: String?

    /// A court with a validated name and nothing on it, whose teams join by `joining`; `.code` needs the digest of
    /// a display key.
    public init(
        id: CourtID, name: String, joining: QueueJoining = .admin, displayKeySHA256: String? = nil
    ) throws(CourtError) {
        self.id = id
        self.name = try Self.validatedName(name)
        self.game = nil
        self.queue = []
        self.streak = nil
        if joining == .code, displayKeySHA256 == nil { throw .noDisplayKey(id) }
        self.joining = joining
        self.displayKeySHA256 = displayKeySHA256
    }

    /// Puts `game` on the court (nil clears it: "next game soon").
    public mutating func put(_ game: GameID?) {
        self.game = game
    }

    /// Sets how teams join; `.code` needs a display key (a new one replaces the old: its displays stop working).
    public mutating func setJoining(_ joining: QueueJoining, displayKeySHA256: String?) throws(CourtError) {
        if let displayKeySHA256 { self.displayKeySHA256 = displayKeySHA256 }
        if joining == .code, self.displayKeySHA256 == nil { throw .noDisplayKey(id) }
        self.joining = joining
    }

    /// Adds a team to the end of the queue.
    public mutating func enqueue(_ team: QueuedTeam) throws(CourtError) {
        guard queue.count < Self.maxQueueLength else { throw .queueFull(id, limit: Self.maxQueueLength) }
        queue.append(team)
    }

    /// Removes the team at `position` (0: first in line).
    public mutating func removeQueued(at position: Int) throws(CourtError) {
        guard queue.indices.contains(position) else { throw .noQueueEntry(id, position: position, count: queue.count) }
        queue.remove(at: position)
    }

    /// Empties the queue.
    public mutating func clearQueue() {
        queue.removeAll()
    }

    /// The team a "next game" would bring on: the first in the queue.
    public func challenger() throws(CourtError) -> QueuedTeam {
        guard let challenger = queue.first else { throw .queueEmpty(id) }
        return challenger
    }

    /// The next pickup game has started with `game`: the winners of the finished game stayed on against
    /// `challenger`, which leaves the queue (wherever it is now: the staff may have moved the queue meanwhile).
    /// Winners who were already on extend their streak; new winners start one at 1.
    public mutating func started(_ game: GameID, winner: QueuedTeam, challenger: QueuedTeam) {
        if let position = queue.firstIndex(of: challenger) { queue.remove(at: position) }
        let wins = streak.map { $0.team == winner ? $0.wins + 1 : 1 } ?? 1
        streak = Streak(team: winner, wins: wins)
        self.game = game
    }

    private static func validatedName(_ raw: String) throws(CourtError) -> String {
        do throws(DisplayNameError) {
            return try DisplayName.validated(raw)
        } catch {
            switch error {
            case .empty: throw .emptyName
            case .tooLong(let limit): throw .nameTooLong(limit: limit)
            default: throw .invalidName(error)
            }
        }
    }
}

extension Court: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, name, game, queue, streak
        // Absent in courts stored before the join code: they join through the admin until given a display key.
        case joining, displayKeySHA256
    }

    /// Decodes a stored court. Queued teams and a streak whose names the rules refuse (stored before the rules
    /// counted scalars and bytes) are dropped rather than served again, so a restart does not bring them back.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(CourtID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        game = try container.decodeIfPresent(GameID.self, forKey: .game)
        let teams = try container.decode([QueuedTeam].self, forKey: .queue)
        queue = Array(teams.filter(\.isValid).prefix(Self.maxQueueLength))
        streak = try container.decodeIfPresent(Streak.self, forKey: .streak).flatMap { $0.team.isValid ? $0 : nil }
        displayKeySHA256 = try container.decodeIfPresent(String.self, forKey: .displayKeySHA256)
        let joining = try container.decodeIfPresent(QueueJoining.self, forKey: .joining) ?? .admin
        self.joining = displayKeySHA256 == nil ? .admin : joining
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(game, forKey: .game)
        try container.encode(queue, forKey: .queue)
        try container.encodeIfPresent(streak, forKey: .streak)
        try container.encode(joining, forKey: .joining)
        try container.encodeIfPresent(displayKeySHA256, forKey: .displayKeySHA256)
    }
}

/// A team waiting for a pickup game: a name and three players (the pickup rules' roster).
public struct QueuedTeam: Sendable, Hashable, Codable {
    public let name: String
    public let players: [String]

    /// Validates the names with the same rules as a game's (`GameSetup`, hence `DisplayName`), and
    /// `Team.playerCount` players.
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

    /// Whether the names pass today's rules (a stored team may predate them).
    var isValid: Bool {
        (try? QueuedTeam(name: name, players: players)) == self
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
    /// The name breaks another rule of `DisplayName`.
    case invalidName(DisplayNameError)
    /// Joining by code on a court that has no display key to show the code.
    case noDisplayKey(CourtID)
    /// No team at `position` (the queue has `count`).
    case noQueueEntry(CourtID, position: Int, count: Int)
    /// The queue has `limit` teams already.
    case queueFull(CourtID, limit: Int)
    /// "Next game" with nobody waiting.
    case queueEmpty(CourtID)
}
