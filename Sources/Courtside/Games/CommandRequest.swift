import CourtsideModel
import CourtsideViewModels

/// One scorer command on its way to the game's owner: the wire bytes, the command decoded from them, when it
/// arrived (for the ack-latency histogram), and where the answer goes. `reply` is called exactly once, on the game's
/// loop, after every journal write the command caused is durable; it hops to the sender's loop itself.
///
/// The bytes are decoded once, here, on arrival: applying the command and every refusal (which names the command's
/// id) use `decoded`, so no path parses a command twice (it was a share of each command's CPU).
struct CommandRequest: Sendable {
    let bytes: [UInt8]
    /// The command, or why it is not one (with its id when readable); nil for an administrative change.
    let decoded: Result<GameCommand, CommandRejection>?
    let receivedAt: ContinuousClock.Instant
    let reply: @Sendable (CommandReply) -> Void
    /// The table-crew member who sent the command (nil: the game's scorer token): the model refuses what the
    /// member's role does not take, and a member revoked while this request waited.
    let issuer: CrewMemberID?
    /// An administrative change instead of a scorer's command (a reopen, a crew member added or revoked): it takes
    /// the same path (arrival order, one journal write, answered once durable); `bytes` are empty.
    let administration: GameAdministration?
    var isReopen: Bool { administration == .reopen }

    init(
        bytes: [UInt8], receivedAt: ContinuousClock.Instant, reply: @escaping @Sendable (CommandReply) -> Void,
        isReopen: Bool = false, issuer: CrewMemberID? = nil
    ) {
        self.bytes = bytes
        self.decoded = isReopen ? nil : CommandDecoder().decode(bytes)
        self.receivedAt = receivedAt
        self.reply = reply
        self.issuer = issuer
        self.administration = isReopen ? .reopen : nil
    }

    /// An administrative change, answered like a command (its reply's id is ``GameAdministration/replyID(for:)``).
    init(
        administration: GameAdministration, receivedAt: ContinuousClock.Instant,
        reply: @escaping @Sendable (CommandReply) -> Void
    ) {
        self.bytes = []
        self.decoded = nil
        self.receivedAt = receivedAt
        self.reply = reply
        self.issuer = nil
        self.administration = administration
    }

    /// The id of the command, when its bytes had a readable one.
    var commandID: CommandID? {
        switch decoded {
        case .success(let command): command.id
        case .failure(let rejection): rejection.id
        case nil: nil
        }
    }
}

extension WireErrorCode {
    /// The game cannot take commands now: its journal failed, or too many commands wait for the disk.
    static let unavailable = WireErrorCode(rawValue: "unavailable")
    /// The connection sent commands faster than its rate limit (docs/server.md, "Limits").
    static let rateLimited = WireErrorCode(rawValue: "rate_limited")
    /// No game has this id (docs/protocol.md).
    static let unknownGame = WireErrorCode(rawValue: "unknown_game")
    /// The game is archived and takes no more commands (docs/protocol.md).
    static let gameArchived = WireErrorCode(rawValue: "game_archived")
    /// The game is relayed from a venue node (docs/relay.md): its commands go to the venue's server.
    static let relayedGame = WireErrorCode(rawValue: "relayed_game")

    /// The message of a `relayed_game` refusal, naming the venue.
    static func relayedGameMessage(_ game: GameID, venue: String) -> String {
        "game \(game) is relayed from venue \(venue): commands go to the venue's own server"
    }
    /// A spectator (or lobby) socket sent something: these sockets are read-only.
    static let readOnly = WireErrorCode(rawValue: "read_only")
}

extension CommandReply {
    /// An error reply naming the command when its id can be read from `bytes` (for bytes that never became a
    /// `CommandRequest`; a request's refusal reuses its decoded command: ``refusal(_:_:for:)``).
    static func refusal(_ code: WireErrorCode, _ message: String, bytes: [UInt8]) -> CommandReply {
        let id: CommandID? =
            switch CommandDecoder().decode(bytes) {
            case .success(let command): command.id
            case .failure(let rejection): rejection.id
            }
        return .rejected(id: id, failure: CommandFailure(code, message))
    }

    /// An error reply to `request`, naming its command when it had a readable id; nothing is parsed again.
    static func refusal(_ code: WireErrorCode, _ message: String, for request: CommandRequest) -> CommandReply {
        .rejected(id: request.commandID, failure: CommandFailure(code, message))
    }
}
