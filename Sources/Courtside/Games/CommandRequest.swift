import CourtsideModel
import CourtsideViewModels

/// One scorer command on its way to the game's owner: the wire bytes, when it arrived (for the ack-latency
/// histogram), and where the answer goes. `reply` is called exactly once, on the game's loop, after every journal
/// write the command caused is durable; it hops to the sender's loop itself.
struct CommandRequest: Sendable {
    let bytes: [UInt8]
    let receivedAt: ContinuousClock.Instant
    let reply: @Sendable (CommandReply) -> Void
    /// An administrator's reopen of a locked game (`POST /api/games/{id}/reopen`) instead of a scorer's command:
    /// it takes the same path (arrival order, one journal write, answered once durable); `bytes` are empty.
    var isReopen = false
}

extension WireErrorCode {
    /// The game cannot take commands now: its journal failed, or too many commands wait for the disk.
    static let unavailable = WireErrorCode(rawValue: "unavailable")
    /// The connection sent commands faster than its rate limit (ISSUE5 §5).
    static let rateLimited = WireErrorCode(rawValue: "rate_limited")
    /// No game has this id (docs/protocol.md).
    static let unknownGame = WireErrorCode(rawValue: "unknown_game")
    /// The game is archived and takes no more commands (docs/protocol.md).
    static let gameArchived = WireErrorCode(rawValue: "game_archived")
    /// A spectator (or lobby) socket sent something: these sockets are read-only.
    static let readOnly = WireErrorCode(rawValue: "read_only")
}

extension CommandReply {
    /// An error reply naming the command when its id can be read from `bytes`.
    static func refusal(_ code: WireErrorCode, _ message: String, bytes: [UInt8]) -> CommandReply {
        let id: CommandID? =
            switch CommandDecoder().decode(bytes) {
            case .success(let command): command.id
            case .failure(let rejection): rejection.id
            }
        return .rejected(id: id, failure: CommandFailure(code, message))
    }
}
