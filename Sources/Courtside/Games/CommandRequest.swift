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
    /// The command, or why it is not one (with its id when readable); nil for a reopen.
    let decoded: Result<GameCommand, CommandRejection>?
    let receivedAt: ContinuousClock.Instant
    let reply: @Sendable (CommandReply) -> Void
    /// An administrator's reopen of a locked game (`POST /api/games/{id}/reopen`) instead of a scorer's command:
    /// it takes the same path (arrival order, one journal write, answered once durable); `bytes` are empty.
    var isReopen: Bool { decoded == nil }

    init(
        bytes: [UInt8], receivedAt: ContinuousClock.Instant, reply: @escaping @Sendable (CommandReply) -> Void,
        isReopen: Bool = false
    ) {
        self.bytes = bytes
        self.decoded = isReopen ? nil : CommandDecoder().decode(bytes)
        self.receivedAt = receivedAt
        self.reply = reply
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
