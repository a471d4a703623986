/// Something a scorer asks of a game, with the id the client chose for it (see `CommandID`).
///
/// Wire shape (`Codable`, docs/protocol.md "Commands"): `{"type":"move","id":CID,"player":PID,"move":"onePoint"}`,
/// `{"type":"clock","id":CID,"action":"start"}`, `{"type":"undo","id":CID}`, `{"type":"timeout","id":CID,
/// "team":"home"}`, `{"type":"shotClock","id":CID,"action":"reset","ms":14000}`, `{"type":"possession","id":CID,
/// "team":"away"}`, `{"type":"setClock","id":CID,"elapsedMs":N}`, `{"type":"substitute","id":CID,"team":"home",
/// "out":PID,"in":PID}`, `{"type":"editPlay","id":CID,"play":P,"player":PID,"move":M}`, `{"type":"deletePlay",
/// "id":CID,"play":P}`, `{"type":"final","id":CID}`, `{"type":"teamMove","id":CID,"team":"home","move":M}`,
/// `{"type":"endPeriod","id":CID}`, `{"type":"review","id":CID,"action":"start"}`, `{"type":"resolve","id":CID,
/// "play":P,"keep":"first"}`.
public struct GameCommand: Sendable, Hashable {
    /// What the command asks for.
    public enum Action: Sendable, Hashable {
        /// Record `move` for `player`.
        case move(player: PlayerID, move: PlayerMove)
        /// Start or pause the game clock.
        case clock(ClockAction)
        /// Revert the most recent move not yet undone.
        case undo
        /// `team` takes a timeout: the clocks stop and its allowance shrinks by one.
        case timeout(TeamSide)
        /// Operate the shot clock.
        case shotClock(ShotClockAction)
        /// `team` has the ball (the possession arrow points its way).
        case possession(TeamSide)
        /// Correct the game clock: `elapsedMs` of the current period have run.
        case setClock(elapsedMs: Int64)
        /// `playerOut` leaves the court for `playerIn` (rules with substitutions).
        case substitute(team: TeamSide, playerOut: PlayerID, playerIn: PlayerID)
        /// Correct play number `play`: it was `move` by `player`.
        case editPlay(play: Int, player: PlayerID, move: PlayerMove)
        /// Strike play number `play` from the record.
        case deletePlay(play: Int)
        /// Confirm the result: the game takes no more commands until an administrator reopens it.
        case final
        /// Record `move` for `team` with no player (a team rebound or turnover, a coach's or bench's foul).
        case teamMove(team: TeamSide, move: TeamMove)
        /// End the current period now, exactly as the game clock reaching its length would.
        case endPeriod
        /// Start or end a review: while one runs the game clock cannot start.
        case review(ReviewAction)
        /// Settle the two scorers' conflict over play number `play` (dual confirmation).
        case resolve(play: Int, keep: ConflictResolution)
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
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        let id = try container.decode(CommandID.self, forKey: .id)
        let type = try container.decode(String.self, forKey: .type)
        guard let action = try Action(type: type, from: container) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown command type \(type)")
        }
        self.init(id: id, action: action)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(action.typeName, forKey: .type)
        try container.encode(id, forKey: .id)
        try action.encodeFields(into: &container)
    }
}
