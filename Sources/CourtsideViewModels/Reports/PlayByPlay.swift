import CourtsideModel

/// The play-by-play of a game as JSON (`GET /api/games/{id}/plays`) and CSV (`/plays.csv`): every play with its
/// number, the `seq` that first showed it, period, game clock, wall time, team, player, move, whether it was
/// edited or deleted, and the score after it (as the record stands: a deleted play leaves the score as it was).
public struct PlayByPlay: Sendable, Equatable {
    public let game: Game
    public let rows: [PlayRow]

    public init(game: Game, rows: [PlayRow]) {
        self.game = game
        self.rows = rows
    }

    /// The score after each row's play, in row order.
    var scoresAfter: [ScoreLine] {
        var score = ScoreLine()
        return rows.map { row in
            if row.play.isCounted { score[row.play.team] += row.play.move.points }
            return score
        }
    }

    /// `{"game","plays":[PLAY…]}`, PLAY as in the document plus `playerName`, `number`, and `homeScore` and
    /// `awayScore` after the play, and `enteredBy` (the crew member's id) for a play a crew member entered.
    public var json: JSONValue {
        let plays: [JSONValue] = zip(rows, scoresAfter).map { row, score in
            var members = GameDocument.playJSON(row).objectValue ?? [:]
            members["homeScore"] = .int(score.home)
            members["awayScore"] = .int(score.away)
            let player = game.player(row.play.player)
            members["playerName"] = player.map { .string($0.name) } ?? .null
            members["number"] = player?.number.map { .string($0) } ?? .null
            // Only plays a crew member entered name one: a game scored with its scorer token reports as before.
            if let member = row.play.enteredBy { members["enteredBy"] = .string(member.rawValue) }
            if game.rules.dualConfirmation != nil { members.merge(Self.confirmation(of: row.play)) { _, new in new } }
            return .object(members)
        }
        return ["game": .string(game.id.rawValue), "plays": .array(plays)]
    }

    /// With two scorers, who entered the play and who confirmed it: `enteredBy` and `confirmedBy` name a crew
    /// member, or `"scorer"` for the game's own scorer token; a resolved conflict has `resolvedBy` and `kept`
    /// (`first`, `second`, `both`, `neither`) instead of `confirmedBy`.
    static func confirmation(of play: Play) -> [String: JSONValue] {
        func name(_ member: CrewMemberID?) -> JSONValue { .string(member?.rawValue ?? "scorer") }
        var members: [String: JSONValue] = ["enteredBy": name(play.enteredBy)]
        switch play.check {
        case .confirmed(let by)?: members["confirmedBy"] = name(by)
        case .resolved(let keep, let by, _)?:
            members["resolvedBy"] = name(by)
            members["kept"] = .string(keep.rawValue)
        case .pending?, .conflict?, nil: break
        }
        return members
    }

    public var csv: CSVTable {
        var table = CSVTable(
            header: [
                "Play", "Seq", "Period", "Clock", "Time (Unix ms)", "Team", "Number", "Player", "Move", "Edited",
                "Deleted", "Score",
            ])
        for (row, score) in zip(rows, scoresAfter) {
            let play = row.play
            let player = game.player(play.player)
            table.rows.append([
                .number(play.number), row.seq.map { .number($0) } ?? .empty, row.period.map { .number($0) } ?? .empty,
                .text(TimeFormatting.label(elapsedMs: play.elapsedMs)), .number(Int(play.at.milliseconds)),
                .text(game.team(play.team).name), player?.number.map { .text($0) } ?? .empty,
                .text(player?.name ?? play.player.rawValue), .text(play.move.rawValue),
                .text(play.isEdited ? "yes" : "no"), .text(play.isDeleted ? "yes" : "no"), .text(score.description),
            ])
        }
        return table
    }
}
