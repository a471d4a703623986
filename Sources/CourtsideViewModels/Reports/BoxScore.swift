import CourtsideModel

/// The box score of a game: each player's 1PT, 2PT, PTS, AST, REB and FOUL, and each team's totals and team fouls,
/// as JSON (`GET /api/games/{id}/boxscore`) and CSV (`/boxscore.csv`). Read from the model's counts, so the
/// totals are the score.
public struct BoxScore: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        public var counts = MoveCounts()

        public var json: JSONValue {
            [
                "onePoint": .int(counts.onePoint), "twoPoints": .int(counts.twoPoints), "points": .int(counts.points),
                "assists": .int(counts.assist), "rebounds": .int(counts.rebound), "fouls": .int(counts.foul),
            ]
        }

        var cells: [CSVTable.Cell] {
            [
                .number(counts.onePoint), .number(counts.twoPoints), .number(counts.points), .number(counts.assist),
                .number(counts.rebound), .number(counts.foul),
            ]
        }
    }

    public let game: Game

    public init(game: Game) {
        self.game = game
    }

    func line(_ player: Player) -> Line {
        Line(counts: game.moveCounts(for: player.id) ?? MoveCounts())
    }

    func totals(_ side: TeamSide) -> Line {
        var total = MoveCounts()
        for player in game.team(side).players {
            let counts = game.moveCounts(for: player.id) ?? MoveCounts()
            for move in PlayerMove.allCases { total[move] += counts[move] }
        }
        return Line(counts: total)
    }

    /// `{"game","score","homeTeam":TEAM,"awayTeam":TEAM}`, TEAM being
    /// `{"name","players":[{"id","name","number",counts…}],"totals":{counts…},"teamFouls"}`.
    public var json: JSONValue {
        func team(_ side: TeamSide) -> JSONValue {
            let team = game.team(side)
            let players: [JSONValue] = team.players.map { player in
                var members = line(player).json.objectValue ?? [:]
                members["id"] = .string(player.id.rawValue)
                members["name"] = .string(player.name)
                members["number"] = player.number.map { .string($0) } ?? .null
                return .object(members)
            }
            return [
                "name": .string(team.name), "players": .array(players), "totals": totals(side).json,
                "teamFouls": game.rules.teamFouls == nil ? .null : .int(game.teamFouls[side]),
            ]
        }
        return [
            "game": .string(game.id.rawValue), "score": .string(game.score.description), "homeTeam": team(.home),
            "awayTeam": team(.away),
        ]
    }

    /// One row per player, then a TOTAL row per team carrying its team fouls.
    public var csv: CSVTable {
        var table = CSVTable(
            header: ["Team", "Number", "Player", "1PT", "2PT", "PTS", "AST", "REB", "FOUL", "TEAM FOULS"])
        for side in TeamSide.allCases {
            let team = game.team(side)
            for player in team.players {
                table.rows.append(
                    [.text(team.name), player.number.map { .text($0) } ?? .empty, .text(player.name)]
                        + line(player).cells + [.empty])
            }
            let teamFouls: CSVTable.Cell = game.rules.teamFouls == nil ? .empty : .number(game.teamFouls[side])
            table.rows.append([.text(team.name), .empty, "TOTAL"] + totals(side).cells + [teamFouls])
        }
        return table
    }
}
