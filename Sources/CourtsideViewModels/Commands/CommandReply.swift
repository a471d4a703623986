import CourtsideModel

/// The answer to one command: an ack with the sequence number whose state includes the command's effect, or an
/// error. Replies go only to the client that sent the command; they are encoded once like every message.
public enum CommandReply: Equatable, Sendable {
    /// The command was applied (now or, for a repeated id, earlier); the document at `seq` reflects it.
    case accepted(id: CommandID, seq: Int)
    /// The command was refused; nothing changed. `id` is nil only when the input had no readable id.
    case rejected(id: CommandID?, failure: CommandFailure)

    /// The command id the reply answers.
    public var id: CommandID? {
        switch self {
        case .accepted(let id, _): id
        case .rejected(let id, _): id
        }
    }

    /// `{"v":1,"type":"ack","id":CID,"seq":N}` or `{"v":1,"type":"error","id":CID,"code":…,"message":…}`.
    public var json: JSONValue {
        switch self {
        case .accepted(let id, let seq):
            ["v": .int(WireFormat.version), "type": "ack", "id": .string(id.rawValue), "seq": .int(seq)]
        case .rejected(let id, let failure):
            [
                "v": .int(WireFormat.version), "type": "error", "id": id.map { .string($0.rawValue) } ?? .null,
                "code": .string(failure.code.rawValue), "message": .string(failure.message),
            ]
        }
    }

    /// The canonical bytes of ``json``.
    public var bytes: [UInt8] { json.canonicalBytes }
}

/// A typed refusal: the stable code and a sentence for people.
public struct CommandFailure: Error, Equatable, Sendable {
    public let code: WireErrorCode
    public let message: String

    public init(_ code: WireErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The failure for a game's rejection.
    public init(_ error: GameError) {
        self.init(WireErrorCode(error), Self.message(for: error))
    }

    static func message(for error: GameError) -> String {
        switch error {
        case .moveAfterFinish(let winner): "the game is finished (\(winner) won): no more moves"
        case .clockStartAfterFinish(let winner): "the game is finished (\(winner) won): the clock cannot start"
        case .unknownPlayer(let player): "no player \"\(player)\" in this game"
        case .nothingToUndo: "there is no move to undo"
        case .clockAlreadyRunning: "the clock is already running"
        case .clockNotRunning: "the clock is not running"
        case .commandIDReused(let id, _): "command id \"\(id)\" was already used for a different command"
        case .afterFinish(let winner): "the game is finished (\(winner) won)"
        case .gameLocked: "the game is confirmed final: an administrator must reopen it first"
        case .notInRules(let feature): "this game's rules have no \(feature.rawValue)"
        case .noTimeoutsLeft(let team): "\(team) has no timeout left"
        case .shotClockAlreadyRunning: "the shot clock is already running"
        case .shotClockNotRunning: "the shot clock is not running"
        case .shotClockOff: "the shot clock is switched off"
        case .timeOutOfRange(let ms, let allowed):
            "\(ms) ms is outside \(allowed.lowerBound)…\(allowed.upperBound) ms"
        case .unknownPlay(let play): "there is no play \(play)"
        case .playDeleted(let play): "play \(play) was deleted"
        case .wrongTeam(let player, let team): "\(player) does not play for \(team)"
        case .notOnCourt(let player): "\(player) is not on court"
        case .alreadyOnCourt(let player): "\(player) is already on court"
        case .notLocked: "the game is not locked"
        case .moveNotInRules(let move): "this game's rules have no \(move) move"
        case .teamMoveNotInRules(let move): "this game's rules have no \(move) team move"
        case .playerNotEligible(let player): "\(player) fouled out or is disqualified and must be substituted"
        case .notAllowedForRole(let role, let command): "the \(role) role may not send \(command)"
        case .memberRevoked(let member): "crew member \(member) was revoked"
        case .unknownMember(let member): "no crew member \(member) in this game"
        case .crewFull(let limit): "the game has \(limit) crew members already"
        case .invalidCrewLabel: "a crew member's label has 1 to \(CrewMember.maxLabelLength) characters"
        case .underReview: "a review is running: end it first"
        case .notUnderReview: "no review is running"
        case .notInConflict(let play): "the scorers do not disagree on play \(play)"
        case .noSecondEntry(let play): "play \(play) has no second entry: keep first or neither"
        case .playInConflict(let play): "the scorers disagree on play \(play): resolve it first"
        case .unconfirmedPlays(let pending, let conflicts):
            "\(pending) plays wait for the other scorer and \(conflicts) for a resolve: settle them first"
        }
    }
}
