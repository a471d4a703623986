/// The table crew: members with roles, added and revoked through the game's own event log, so that every journal
/// keeps them and a replay gives the same crew (docs/protocol.md, "The table crew").
extension Game {
    /// The members not revoked, in the order added.
    public var activeCrew: [CrewMember] { crew.filter { !$0.isRevoked } }

    /// The member with `id` when they were not revoked.
    public func activeMember(_ id: CrewMemberID) -> CrewMember? {
        crew.first { $0.id == id && !$0.isRevoked }
    }

    /// The id the next member gets: `m1`, `m2`, … (revoked members keep theirs).
    public var nextCrewMemberID: CrewMemberID { CrewMemberID(number: crew.count + 1) }

    /// Adds a member with `role`, whose token's SHA-256 is `tokenSHA256`, and records `crewMemberAdded`.
    /// A locked or finished game takes members too: the crew is not the score. Like a command, a period end the
    /// running clock passed before `now` (or a window that closed) is recorded first, so the log stays in time order.
    @discardableResult
    public mutating func addCrewMember(
        role: CrewRole, label: String, tokenSHA256: String, at now: Timestamp
    ) throws(GameError) -> CommandOutcome {
        if let error = crewAdditionRejection(label: label) { throw error }
        let member = CrewMember(id: nextCrewMemberID, role: role, label: label, tokenSHA256: tokenSHA256)
        let at = effectiveTime(now)
        let passed = catchUp(to: at)
        let event = recordCrewMember(member, at: at)
        return CommandOutcome(event: event, newEvents: passed + [event])
    }

    /// Revokes member `id` and records `crewMemberRevoked` (after a period end it passed, as `addCrewMember`);
    /// their later commands are refused.
    @discardableResult
    public mutating func revokeCrewMember(_ id: CrewMemberID, at now: Timestamp) throws(GameError) -> CommandOutcome {
        guard let index = crew.firstIndex(where: { $0.id == id && !$0.isRevoked }) else {
            throw .unknownMember(id)
        }
        let at = effectiveTime(now)
        let passed = catchUp(to: at)
        crew[index].isRevoked = true
        let event = append(.crewMemberRevoked(id), commandID: nil, at: at)
        return CommandOutcome(event: event, newEvents: passed + [event])
    }

    /// Why a member could not be added now, or nil.
    func crewAdditionRejection(label: String) -> GameError? {
        if crew.count >= CrewMember.maxPerGame { return .crewFull(limit: CrewMember.maxPerGame) }
        if label.isEmpty || label.count > CrewMember.maxLabelLength { return .invalidCrewLabel }
        return nil
    }

    mutating func recordCrewMember(_ member: CrewMember, at: Timestamp) -> GameEvent {
        crew.append(member)
        return append(.crewMemberAdded(member), commandID: nil, at: at)
    }

    /// Why `member` may not send `action` (a revoked member, a command outside the role), or nil. The scorer token
    /// (`member` nil) may send everything.
    func crewRejection(of action: GameCommand.Action, by member: CrewMemberID?) -> GameError? {
        guard let member else { return nil }
        guard let found = crew.first(where: { $0.id == member }) else { return .unknownMember(member) }
        if found.isRevoked { return .memberRevoked(member) }
        if !found.role.allows(action) { return .notAllowedForRole(found.role, command: action.typeName) }
        return nil
    }
}
