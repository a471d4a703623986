/// Something a scorer asks of a game, with the id the client chose for it (see `CommandID`).
///
/// Wire shape (`Codable`): `{"type":"move","id":CID,"player":PID,"move":"onePoint"}`,
/// `{"type":"clock","id":CID,"action":"start"}`, `{"type":"undo","id":CID}`.
public struct GameCommand: Sendable, Hashable {
    /// What the command asks for.
    public enum Action: Sendable, Hashable {
        /// Record `move` for `player`.
        case move(player: PlayerID, move: PlayerMove)
        /// Start or pause the game clock.
        case clock(ClockAction)
        /// Revert the most recent move not yet undone.
        case undo
    }

    public let id: CommandID
    public let action: Action

    public init(id: CommandID, action: Action) {
        self.id = id
        self.action = action
    }

    /// Record `move` for `player`.
    public static func move(_ player: PlayerID, _ move: PlayerMove, id: CommandID) -> GameCommand {
        GameCommand(id: id, action: .move(player: player, move: move))
    }

    /// Start the game clock.
    public static func startClock(id: CommandID) -> GameCommand {
        GameCommand(id: id, action: .clock(.start))
    }

    /// Pause the game clock.
    public static func pauseClock(id: CommandID) -> GameCommand {
        GameCommand(id: id, action: .clock(.pause))
    }

    /// Revert the most recent move not yet undone.
    public static func undo(id: CommandID) -> GameCommand {
        GameCommand(id: id, action: .undo)
    }
}

extension GameCommand: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, id, player, move, action
    }

    private enum Kind: String, Codable {
        case move, clock, undo
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(CommandID.self, forKey: .id)
        switch try container.decode(Kind.self, forKey: .type) {
        case .move:
            let player = try container.decode(PlayerID.self, forKey: .player)
            let move = try container.decode(PlayerMove.self, forKey: .move)
            self.init(id: id, action: .move(player: player, move: move))
        case .clock:
            self.init(id: id, action: .clock(try container.decode(ClockAction.self, forKey: .action)))
        case .undo:
            self.init(id: id, action: .undo)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch action {
        case .move(let player, let move):
            try container.encode(Kind.move, forKey: .type)
            try container.encode(id, forKey: .id)
            try container.encode(player, forKey: .player)
            try container.encode(move, forKey: .move)
        case .clock(let clockAction):
            try container.encode(Kind.clock, forKey: .type)
            try container.encode(id, forKey: .id)
            try container.encode(clockAction, forKey: .action)
        case .undo:
            try container.encode(Kind.undo, forKey: .type)
            try container.encode(id, forKey: .id)
        }
    }
}
