/// One accepted change to a game, in the order it happened: a game is its `GameSetup` plus its events, and
/// `Game(setup:replaying:)` rebuilds it exactly.
///
/// Events record inputs, not results: scores, counts, the winner and the automatic clock stop are derived again on
/// replay. The only event no client asked for is `timeLimitReached`, recorded by `Game.advance(to:)` (or by
/// `Game.apply(_:at:)` before a late command) at the exact instant the game clock reached the limit.
///
/// JSON shape: `{"seq":1,"at":1000,"commandId":"c1","type":"move","player":"home-0","move":"onePoint"}`,
/// `{"seq":2,"at":1500,"commandId":"c2","type":"clock","action":"start"}`,
/// `{"seq":3,"at":1700,"commandId":"c3","type":"undo","undoes":1}`,
/// `{"seq":4,"at":601500,"type":"timeLimitReached"}`.
public struct GameEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// A player's move was recorded.
        case move(player: PlayerID, move: PlayerMove)
        /// The game clock was started or paused by a scorer.
        case clock(ClockAction)
        /// The move recorded by event `undoes` (a sequence number) was reverted.
        case undo(undoes: Int)
        /// The game clock reached the rules' time limit: the clock stopped, and the team ahead won or overtime began.
        case timeLimitReached
    }

    /// The event's 1-based position in its game's log.
    public let sequence: Int
    /// When it happened, on the caller's clock.
    public let at: Timestamp
    /// The id of the command that caused it; nil for `timeLimitReached`.
    public let commandID: CommandID?
    public let kind: Kind

    public init(sequence: Int, at: Timestamp, commandID: CommandID?, kind: Kind) {
        self.sequence = sequence
        self.at = at
        self.commandID = commandID
        self.kind = kind
    }

    /// Whether this event is what `command` asks for (used to tell a retry from a reused command id).
    func records(_ command: GameCommand) -> Bool {
        guard commandID == command.id else { return false }
        switch (kind, command.action) {
        case (.move(let player, let move), .move(let commandPlayer, let commandMove)):
            return player == commandPlayer && move == commandMove
        case (.clock(let action), .clock(let commandAction)):
            return action == commandAction
        case (.undo, .undo):
            return true
        default:
            return false
        }
    }

    /// The command this event records, or nil for `timeLimitReached`.
    public var command: GameCommand? {
        guard let commandID else { return nil }
        switch kind {
        case .move(let player, let move): return .move(player, move, id: commandID)
        case .clock(let action): return GameCommand(id: commandID, action: .clock(action))
        case .undo: return .undo(id: commandID)
        case .timeLimitReached: return nil
        }
    }
}

extension GameEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case seq, at, commandId, type, player, move, action, undoes
    }

    private enum TypeName: String, Codable {
        case move, clock, undo, timeLimitReached
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind: Kind
        switch try container.decode(TypeName.self, forKey: .type) {
        case .move:
            kind = .move(
                player: try container.decode(PlayerID.self, forKey: .player),
                move: try container.decode(PlayerMove.self, forKey: .move))
        case .clock:
            kind = .clock(try container.decode(ClockAction.self, forKey: .action))
        case .undo:
            kind = .undo(undoes: try container.decode(Int.self, forKey: .undoes))
        case .timeLimitReached:
            kind = .timeLimitReached
        }
        self.init(
            sequence: try container.decode(Int.self, forKey: .seq),
            at: try container.decode(Timestamp.self, forKey: .at),
            commandID: try container.decodeIfPresent(CommandID.self, forKey: .commandId),
            kind: kind)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .seq)
        try container.encode(at, forKey: .at)
        try container.encodeIfPresent(commandID, forKey: .commandId)
        switch kind {
        case .move(let player, let move):
            try container.encode(TypeName.move, forKey: .type)
            try container.encode(player, forKey: .player)
            try container.encode(move, forKey: .move)
        case .clock(let action):
            try container.encode(TypeName.clock, forKey: .type)
            try container.encode(action, forKey: .action)
        case .undo(let undoes):
            try container.encode(TypeName.undo, forKey: .type)
            try container.encode(undoes, forKey: .undoes)
        case .timeLimitReached:
            try container.encode(TypeName.timeLimitReached, forKey: .type)
        }
    }
}
