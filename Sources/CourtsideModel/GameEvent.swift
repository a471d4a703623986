/// One accepted change to a game, in the order it happened: a game is its `GameSetup` plus its events, and
/// `Game(setup:replaying:)` rebuilds it exactly.
///
/// Events record inputs, not results: scores, counts, fouls, periods, the winner and the automatic clock stops are
/// derived again on replay. Two events no scorer command causes: `timeLimitReached`, recorded by
/// `Game.advance(to:)` (or by `Game.apply(_:at:)` before a late command) at the exact instant the game clock
/// reached the end of a period, and `reopened`, recorded when an administrator reopens a locked game.
///
/// JSON shape: `{"seq":1,"at":1000,"commandId":"c1","type":"move","player":"home-0","move":"onePoint"}`,
/// `{"seq":2,"at":1500,"commandId":"c2","type":"clock","action":"start"}`,
/// `{"seq":3,"at":1700,"commandId":"c3","type":"undo","undoes":1}`,
/// `{"seq":4,"at":601500,"type":"timeLimitReached"}`, `{"seq":9,"at":700000,"type":"reopened"}`; the other
/// commands are recorded with the members of their wire form (`GameCommand`), plus `"by":"m1"` when a table-crew
/// member sent them. The crew: `{"seq":5,"at":MS,"type":"crewMemberAdded","member":"m1","role":"clock",
/// "label":"Table laptop","tokenSHA256":HEX}` and `{"seq":6,"at":MS,"type":"crewMemberRevoked","member":"m1"}`.
/// Two scorers who confirm each other: their entries are `move` events (whether one is pending, confirms or
/// conflicts is derived, as a score is), a closed window is `{"seq":7,"at":MS,"type":"confirmationExpired",
/// "play":3}` (no command causes it) and a resolution `{"seq":8,"at":MS,"commandId":CID,"type":"resolve","play":3,
/// "keep":"first","by":"m2"}`.
public struct GameEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// A player's move was recorded.
        case move(player: PlayerID, move: PlayerMove)
        /// The game clock was started or paused by a scorer.
        case clock(ClockAction)
        /// The move recorded by event `undoes` (a sequence number) was reverted.
        case undo(undoes: Int)
        /// The game clock reached the end of the period: the clock stopped, and the next period began, the team
        /// ahead won, or overtime began.
        case timeLimitReached
        case timeout(TeamSide)
        case shotClock(ShotClockAction)
        case possession(TeamSide)
        case setClock(elapsedMs: Int64)
        case substitute(team: TeamSide, playerOut: PlayerID, playerIn: PlayerID)
        case editPlay(play: Int, player: PlayerID, move: PlayerMove)
        case deletePlay(play: Int)
        case final
        case teamMove(team: TeamSide, move: TeamMove)
        /// A scorer ended the period by hand: the same effects as `timeLimitReached`.
        case endPeriod
        /// An administrator reopened the locked game.
        case reopened
        /// A review started or ended.
        case review(ReviewAction)
        /// A table-crew member was added (with the digest of their token, never the token).
        case crewMemberAdded(CrewMember)
        /// A table-crew member was revoked: their token is refused from then on.
        case crewMemberRevoked(CrewMemberID)
        /// A scorer settled the conflict over play `play`.
        case resolve(play: Int, keep: ConflictResolution)
        /// The window to confirm play `play` closed with no answer from the other scorer: it is a conflict now.
        case confirmationExpired(play: Int)

        /// The kind recording `action` (an undo records which move it reverted, so it is not made here).
        public init(recording action: GameCommand.Action, undoes: Int? = nil) {
            switch action {
            case .move(let player, let move): self = .move(player: player, move: move)
            case .clock(let action): self = .clock(action)
            case .undo:
                guard let undoes else { preconditionFailure("Invalid state: an undo event needs the move it undoes") }
                self = .undo(undoes: undoes)
            case .timeout(let team): self = .timeout(team)
            case .shotClock(let action): self = .shotClock(action)
            case .possession(let team): self = .possession(team)
            case .setClock(let elapsedMs): self = .setClock(elapsedMs: elapsedMs)
            case .substitute(let team, let playerOut, let playerIn):
                self = .substitute(team: team, playerOut: playerOut, playerIn: playerIn)
            case .editPlay(let play, let player, let move): self = .editPlay(play: play, player: player, move: move)
            case .deletePlay(let play): self = .deletePlay(play: play)
            case .final: self = .final
            case .teamMove(let team, let move): self = .teamMove(team: team, move: move)
            case .endPeriod: self = .endPeriod
            case .review(let action): self = .review(action)
            case .resolve(let play, let keep): self = .resolve(play: play, keep: keep)
            }
        }

        /// The scorer action this kind records, or nil for the two kinds no scorer causes.
        public var action: GameCommand.Action? {
            switch self {
            case .move(let player, let move): .move(player: player, move: move)
            case .clock(let action): .clock(action)
            case .undo: .undo
            case .timeLimitReached, .reopened, .crewMemberAdded, .crewMemberRevoked, .confirmationExpired: nil
            case .timeout(let team): .timeout(team)
            case .shotClock(let action): .shotClock(action)
            case .possession(let team): .possession(team)
            case .setClock(let elapsedMs): .setClock(elapsedMs: elapsedMs)
            case .substitute(let team, let playerOut, let playerIn):
                .substitute(team: team, playerOut: playerOut, playerIn: playerIn)
            case .editPlay(let play, let player, let move): .editPlay(play: play, player: player, move: move)
            case .deletePlay(let play): .deletePlay(play: play)
            case .final: .final
            case .teamMove(let team, let move): .teamMove(team: team, move: move)
            case .endPeriod: .endPeriod
            case .review(let action): .review(action)
            case .resolve(let play, let keep): .resolve(play: play, keep: keep)
            }
        }
    }

    /// The event's 1-based position in its game's log.
    public let sequence: Int
    /// When it happened, on the caller's clock.
    public let at: Timestamp
    /// The id of the command that caused it; nil for `timeLimitReached` and `reopened`.
    public let commandID: CommandID?
    public let kind: Kind
    /// The table-crew member whose command it records; nil for the game's scorer token and the events no command
    /// causes.
    public let member: CrewMemberID?

    public init(sequence: Int, at: Timestamp, commandID: CommandID?, kind: Kind, by member: CrewMemberID? = nil) {
        self.sequence = sequence
        self.at = at
        self.commandID = commandID
        self.kind = kind
        self.member = member
    }

    /// Whether this event is what `command` asks for (used to tell a retry from a reused command id).
    func records(_ command: GameCommand) -> Bool {
        commandID == command.id && kind.action == command.action
    }

    /// The command this event records, or nil for `timeLimitReached` and `reopened`.
    public var command: GameCommand? {
        guard let commandID, let action = kind.action else { return nil }
        return GameCommand(id: commandID, action: action)
    }
}

extension GameEvent: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        let type = try container.decode(String.self, forKey: .type)
        let kind: Kind
        switch type {
        case "undo": kind = .undo(undoes: try container.decode(Int.self, forKey: .undoes))
        case "timeLimitReached": kind = .timeLimitReached
        case "reopened": kind = .reopened
        case "crewMemberAdded":
            kind = .crewMemberAdded(
                CrewMember(
                    id: try container.decode(CrewMemberID.self, forKey: .member),
                    role: try container.decode(CrewRole.self, forKey: .role),
                    label: try container.decode(String.self, forKey: .label),
                    tokenSHA256: try container.decode(String.self, forKey: .tokenSHA256)))
        case "crewMemberRevoked": kind = .crewMemberRevoked(try container.decode(CrewMemberID.self, forKey: .member))
        case "confirmationExpired": kind = .confirmationExpired(play: try container.decode(Int.self, forKey: .play))
        default:
            guard let action = try GameCommand.Action(type: type, from: container) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container, debugDescription: "unknown event type \(type)")
            }
            kind = Kind(recording: action)
        }
        self.init(
            sequence: try container.decode(Int.self, forKey: .seq),
            at: try container.decode(Timestamp.self, forKey: .at),
            commandID: try container.decodeIfPresent(CommandID.self, forKey: .commandId),
            kind: kind, by: try container.decodeIfPresent(CrewMemberID.self, forKey: .by))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(sequence, forKey: .seq)
        try container.encode(at, forKey: .at)
        try container.encodeIfPresent(commandID, forKey: .commandId)
        try container.encodeIfPresent(member, forKey: .by)
        switch kind {
        case .undo(let undoes):
            try container.encode("undo", forKey: .type)
            try container.encode(undoes, forKey: .undoes)
        case .timeLimitReached:
            try container.encode("timeLimitReached", forKey: .type)
        case .reopened:
            try container.encode("reopened", forKey: .type)
        case .crewMemberAdded(let member):
            try container.encode("crewMemberAdded", forKey: .type)
            try container.encode(member.id, forKey: .member)
            try container.encode(member.role, forKey: .role)
            try container.encode(member.label, forKey: .label)
            try container.encode(member.tokenSHA256, forKey: .tokenSHA256)
        case .crewMemberRevoked(let member):
            try container.encode("crewMemberRevoked", forKey: .type)
            try container.encode(member, forKey: .member)
        case .confirmationExpired(let play):
            try container.encode("confirmationExpired", forKey: .type)
            try container.encode(play, forKey: .play)
        default:
            // Every other kind records an action.
            guard let action = kind.action else { preconditionFailure("Invalid state: \(kind) has no action") }
            try container.encode(action.typeName, forKey: .type)
            try action.encodeFields(into: &container)
        }
    }
}
