/// Every member name of the commands' and events' JSON shapes, shared so that a command and the event recording
/// it spell their fields the same way.
enum WireKey: String, CodingKey {
    case seq, at, commandId, id, type, player, move, action, undoes, team, ms, elapsedMs, out, play
    case by, member, role, label, tokenSHA256, keep
    case playerIn = "in"
}

extension GameCommand.Action {
    /// The `"type"` of the command (and of the event recording it).
    public var typeName: String {
        switch self {
        case .move: "move"
        case .clock: "clock"
        case .undo: "undo"
        case .timeout: "timeout"
        case .shotClock: "shotClock"
        case .possession: "possession"
        case .setClock: "setClock"
        case .substitute: "substitute"
        case .editPlay: "editPlay"
        case .deletePlay: "deletePlay"
        case .final: "final"
        case .teamMove: "teamMove"
        case .endPeriod: "endPeriod"
        case .review: "review"
        case .resolve: "resolve"
        }
    }

    /// The action of `type` read from its other members; nil when `type` names no command.
    init?(type: String, from container: KeyedDecodingContainer<WireKey>) throws {
        switch type {
        case "move":
            self = .move(
                player: try container.decode(PlayerID.self, forKey: .player),
                move: try container.decode(PlayerMove.self, forKey: .move))
        case "clock":
            self = .clock(try container.decode(ClockAction.self, forKey: .action))
        case "undo":
            self = .undo
        case "timeout":
            self = .timeout(try container.decode(TeamSide.self, forKey: .team))
        case "shotClock":
            let name = try container.decode(String.self, forKey: .action)
            guard let action = ShotClockAction(name: name, ms: try container.decodeIfPresent(Int64.self, forKey: .ms))
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: .action, in: container, debugDescription: "invalid shot clock action \(name)")
            }
            self = .shotClock(action)
        case "possession":
            self = .possession(try container.decode(TeamSide.self, forKey: .team))
        case "setClock":
            self = .setClock(elapsedMs: try container.decode(Int64.self, forKey: .elapsedMs))
        case "substitute":
            self = .substitute(
                team: try container.decode(TeamSide.self, forKey: .team),
                playerOut: try container.decode(PlayerID.self, forKey: .out),
                playerIn: try container.decode(PlayerID.self, forKey: .playerIn))
        case "editPlay":
            self = .editPlay(
                play: try container.decode(Int.self, forKey: .play),
                player: try container.decode(PlayerID.self, forKey: .player),
                move: try container.decode(PlayerMove.self, forKey: .move))
        case "deletePlay":
            self = .deletePlay(play: try container.decode(Int.self, forKey: .play))
        case "final":
            self = .final
        case "teamMove":
            self = .teamMove(
                team: try container.decode(TeamSide.self, forKey: .team),
                move: try container.decode(TeamMove.self, forKey: .move))
        case "endPeriod":
            self = .endPeriod
        case "review":
            self = .review(try container.decode(ReviewAction.self, forKey: .action))
        case "resolve":
            self = .resolve(
                play: try container.decode(Int.self, forKey: .play),
                keep: try container.decode(ConflictResolution.self, forKey: .keep))
        default:
            return nil
        }
    }

    /// Writes the members other than `type` and the ids.
    func encodeFields(into container: inout KeyedEncodingContainer<WireKey>) throws {
        switch self {
        case .move(let player, let move), .editPlay(_, let player, let move):
            if case .editPlay(let play, _, _) = self { try container.encode(play, forKey: .play) }
            try container.encode(player, forKey: .player)
            try container.encode(move, forKey: .move)
        case .clock(let action):
            try container.encode(action, forKey: .action)
        case .review(let action):
            try container.encode(action, forKey: .action)
        case .timeout(let team), .possession(let team):
            try container.encode(team, forKey: .team)
        case .shotClock(let action):
            try container.encode(action.name, forKey: .action)
            try container.encodeIfPresent(action.ms, forKey: .ms)
        case .setClock(let elapsedMs):
            try container.encode(elapsedMs, forKey: .elapsedMs)
        case .substitute(let team, let playerOut, let playerIn):
            try container.encode(team, forKey: .team)
            try container.encode(playerOut, forKey: .out)
            try container.encode(playerIn, forKey: .playerIn)
        case .deletePlay(let play):
            try container.encode(play, forKey: .play)
        case .resolve(let play, let keep):
            try container.encode(play, forKey: .play)
            try container.encode(keep, forKey: .keep)
        case .teamMove(let team, let move):
            try container.encode(team, forKey: .team)
            try container.encode(move, forKey: .move)
        case .undo, .final, .endPeriod:
            break
        }
    }
}
