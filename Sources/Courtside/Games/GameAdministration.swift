import CourtsideModel

/// A change to a game that is not a scorer's command: an administrator's reopen, a table-crew member added or
/// revoked (docs/protocol.md, "The table crew"). Each records one event through the owner's command path, so it is
/// ordered with the commands, journaled once and answered once durable, on every journal.
enum GameAdministration: Sendable, Equatable {
    case reopen
    /// `tokenSHA256` is the new member's token digest (hex): the token itself never reaches the owner.
    case addCrewMember(role: CrewRole, label: String, tokenSHA256: String)
    case revokeCrewMember(CrewMemberID)

    /// Performs the change on `game` and returns what it recorded (a crew change may record a period end the
    /// clock passed first); throws and changes nothing when refused.
    func perform(on game: inout Game, now: Timestamp) throws(GameError) -> CommandOutcome {
        switch self {
        case .reopen:
            let event = try game.reopen(at: now)
            return CommandOutcome(event: event, newEvents: [event])
        case .addCrewMember(let role, let label, let tokenSHA256):
            return try game.addCrewMember(role: role, label: label, tokenSHA256: tokenSHA256, at: now)
        case .revokeCrewMember(let member):
            return try game.revokeCrewMember(member, at: now)
        }
    }

    /// The id the change's ack carries: the new member's id for an addition (the route answers with it), a name
    /// outside the wire's command-id alphabet otherwise.
    func replyID(for event: GameEvent) -> CommandID {
        switch event.kind {
        case .crewMemberAdded(let member): CommandID(member.id.rawValue)
        case .crewMemberRevoked: "#revoke"
        default: "#reopen"
        }
    }
}
