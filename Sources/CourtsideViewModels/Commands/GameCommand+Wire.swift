import CourtsideModel

extension GameCommand {
    /// The command in the wire format of docs/protocol.md, "Commands" (what ``CommandDecoder`` reads back).
    public var wireJSON: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id.rawValue), "type": .string(action.typeName)]
        switch action {
        case .move(let player, let move):
            members["player"] = .string(player.rawValue)
            members["move"] = .string(move.rawValue)
        case .clock(let clockAction):
            members["action"] = .string(clockAction.rawValue)
        case .review(let reviewAction):
            members["action"] = .string(reviewAction.rawValue)
        case .undo, .final, .endPeriod:
            break
        case .teamMove(let team, let move):
            members["team"] = .string(team.rawValue)
            members["move"] = .string(move.rawValue)
        case .timeout(let team), .possession(let team):
            members["team"] = .string(team.rawValue)
        case .shotClock(let shotClockAction):
            members["action"] = .string(shotClockAction.name)
            if let ms = shotClockAction.ms { members["ms"] = .int(Int(ms)) }
        case .setClock(let elapsedMs):
            members["elapsedMs"] = .int(Int(elapsedMs))
        case .substitute(let team, let playerOut, let playerIn):
            members["team"] = .string(team.rawValue)
            members["out"] = .string(playerOut.rawValue)
            members["in"] = .string(playerIn.rawValue)
        case .editPlay(let play, let player, let move):
            members["play"] = .int(play)
            members["player"] = .string(player.rawValue)
            members["move"] = .string(move.rawValue)
        case .deletePlay(let play):
            members["play"] = .int(play)
        case .resolve(let play, let keep):
            members["play"] = .int(play)
            members["keep"] = .string(keep.rawValue)
        }
        return .object(members)
    }
}
