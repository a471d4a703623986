/// Everything a game starts from: its id, the two teams and the rules. A game is its setup plus its events.
///
/// Names are trimmed of surrounding whitespace and validated here (`DisplayName`, the rule of every name), so every
/// `Game` has two named teams whose player count the rules allow (`RosterRules`), with distinct valid numbers where
/// given. Decoding runs the same validation.
public struct GameSetup: Sendable, Hashable {
    /// The longest team or player name, in Unicode scalars (`DisplayName`, the rule every name follows).
    public static let maxNameLength = DisplayName.maxScalars

    public let id: GameID
    public let homeTeam: Team
    public let awayTeam: Team
    public let rules: Rules

    public init(
        id: GameID, homeTeam: String, homePlayers: [String], awayTeam: String, awayPlayers: [String],
        rules: Rules = .pickup
    ) throws(GameSetupError) {
        try self.init(
            id: id, homeTeam: homeTeam, homeRoster: homePlayers.map { RosterEntry(name: $0) }, awayTeam: awayTeam,
            awayRoster: awayPlayers.map { RosterEntry(name: $0) }, rules: rules)
    }

    /// A setup from rosters that may carry shirt numbers, and brandings validated by `TeamBranding`.
    public init(
        id: GameID, homeTeam: String, homeRoster: [RosterEntry], awayTeam: String, awayRoster: [RosterEntry],
        rules: Rules = .pickup, homeBranding: TeamBranding = .none, awayBranding: TeamBranding = .none,
        homeStarters: [Int]? = nil, awayStarters: [Int]? = nil
    ) throws(GameSetupError) {
        self.id = id
        self.homeTeam = try Self.validatedTeam(
            .home, name: homeTeam, roster: homeRoster, rules: rules, branding: homeBranding, starters: homeStarters)
        self.awayTeam = try Self.validatedTeam(
            .away, name: awayTeam, roster: awayRoster, rules: rules, branding: awayBranding, starters: awayStarters)
        self.rules = rules
    }

    /// The team on `side`.
    public func team(_ side: TeamSide) -> Team {
        side == .home ? homeTeam : awayTeam
    }

    /// The player with `id` on either team, or nil.
    public func player(_ id: PlayerID) -> Player? {
        homeTeam.player(id) ?? awayTeam.player(id)
    }

    /// The side `id` plays for, or nil when no player has that id.
    public func side(of id: PlayerID) -> TeamSide? {
        if homeTeam.player(id) != nil { return .home }
        if awayTeam.player(id) != nil { return .away }
        return nil
    }

    private static func validatedTeam(
        _ side: TeamSide, name: String, roster: [RosterEntry], rules: Rules, branding: TeamBranding,
        starters: [Int]?
    ) throws(GameSetupError) -> Team {
        let teamName: String
        do throws(DisplayNameError) {
            teamName = try DisplayName.validated(name)
        } catch {
            switch error {
            case .empty: throw .emptyTeamName(side)
            case .tooLong(let limit): throw .teamNameTooLong(side, limit: limit)
            default: throw .invalidTeamName(side, error)
            }
        }
        let allowed = rules.roster.players
        if !allowed.contains(roster.count) {
            throw .wrongPlayerCount(side, count: roster.count, allowed: allowed)
        }
        var entries: [RosterEntry] = []
        var numbers: Set<String> = []
        for (index, raw) in roster.enumerated() {
            let playerName: String
            do throws(DisplayNameError) {
                playerName = try DisplayName.validated(raw.name)
            } catch {
                switch error {
                case .empty: throw .emptyPlayerName(side, index: index)
                case .tooLong(let limit): throw .playerNameTooLong(side, index: index, limit: limit)
                default: throw .invalidPlayerName(side, index: index, error)
                }
            }
            let number = raw.number.map(trimmed).flatMap { $0.isEmpty ? nil : $0 }
            if let number {
                guard RosterEntry.isValidNumber(number) else {
                    throw .invalidPlayerNumber(side, index: index, number: number)
                }
                guard numbers.insert(number).inserted else {
                    throw .duplicatePlayerNumber(side, index: index, number: number)
                }
            }
            entries.append(RosterEntry(name: playerName, number: number))
        }
        if let starters {
            guard let onCourt = rules.roster.onCourt, starters.count == onCourt, Set(starters).count == onCourt,
                starters.allSatisfy(roster.indices.contains)
            else { throw .invalidStarters(side, starters) }
        }
        return Team(side: side, name: teamName, entries: entries, branding: branding, starters: starters)
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

extension GameSetup: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, homeTeam, homePlayers, awayTeam, awayPlayers, rules
        // Absent in setups stored before courts existed, and when not given.
        case homeColor, homeShort, awayColor, awayShort
        // Absent when the first players listed start.
        case homeStarters, awayStarters
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                id: container.decode(GameID.self, forKey: .id),
                homeTeam: container.decode(String.self, forKey: .homeTeam),
                homeRoster: container.decode([RosterEntry].self, forKey: .homePlayers),
                awayTeam: container.decode(String.self, forKey: .awayTeam),
                awayRoster: container.decode([RosterEntry].self, forKey: .awayPlayers),
                rules: container.decode(Rules.self, forKey: .rules),
                homeBranding: TeamBranding(
                    color: container.decodeIfPresent(String.self, forKey: .homeColor),
                    short: container.decodeIfPresent(String.self, forKey: .homeShort), side: .home),
                awayBranding: TeamBranding(
                    color: container.decodeIfPresent(String.self, forKey: .awayColor),
                    short: container.decodeIfPresent(String.self, forKey: .awayShort), side: .away),
                homeStarters: container.decodeIfPresent([Int].self, forKey: .homeStarters),
                awayStarters: container.decodeIfPresent([Int].self, forKey: .awayStarters))
        } catch let error as GameSetupError {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "Invalid game setup: \(error)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(homeTeam.name, forKey: .homeTeam)
        try container.encode(homeTeam.entries, forKey: .homePlayers)
        try container.encode(awayTeam.name, forKey: .awayTeam)
        try container.encode(awayTeam.entries, forKey: .awayPlayers)
        try container.encode(rules, forKey: .rules)
        try container.encodeIfPresent(homeTeam.branding.color, forKey: .homeColor)
        try container.encodeIfPresent(homeTeam.branding.short, forKey: .homeShort)
        try container.encodeIfPresent(awayTeam.branding.color, forKey: .awayColor)
        try container.encodeIfPresent(awayTeam.branding.short, forKey: .awayShort)
        try container.encodeIfPresent(homeTeam.starters, forKey: .homeStarters)
        try container.encodeIfPresent(awayTeam.starters, forKey: .awayStarters)
    }
}
