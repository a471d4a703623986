import CourtsideModel
import CourtsideViewModels

/// The demo scorer uses the two paths every client uses: game creation as `POST /api/games`, commands as
/// `POST /api/games/{id}/commands`.
extension CourtsideApplication: DemoHost {
    public func createDemoGame(
        _ teams: DemoTeams, completion: @escaping @Sendable (Result<DemoGame, any Error>) -> Void
    ) {
        let request = GameCreationRequest(
            homeTeam: teams.homeTeam, homePlayers: teams.homePlayers, awayTeam: teams.awayTeam,
            awayPlayers: teams.awayPlayers, rules: teams.rulesJSON)
        createGame(request) { result in
            completion(
                result.map { DemoGame(id: $0.id, spectatorLink: $0.links.spectator) }.mapError { $0 as any Error })
        }
    }

    public func submitDemoCommand(
        _ command: [UInt8], to game: GameID, completion: @escaping @Sendable ([UInt8]) -> Void
    ) {
        submit(command: command, toGame: game, completion: completion)
    }
}

extension DemoTeams {
    /// The `rules` member of a creation request (docs/protocol.md, "Creating a game").
    var rulesJSON: JSONValue {
        switch rules.preset {
        case .pickup, .fiba3x3, .fiba5x5:
            return ["preset": .string(rules.preset.rawValue)]
        case .custom:
            var members: [String: JSONValue] = [
                "preset": "custom", "targetScore": rules.targetScore.map { .int($0) } ?? .null,
                "winBy": .int(rules.winBy),
            ]
            if let limit = rules.timeLimitMs { members["timeLimitMs"] = .number(Double(limit)) }
            return .object(members)
        }
    }
}
