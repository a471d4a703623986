extension Game {
    /// Rebuilds a game from its setup and its events; the result equals the game that recorded them.
    public init(setup: GameSetup, replaying events: some Sequence<GameEvent>) throws(GameReplayError) {
        self.init(setup: setup)
        for event in events {
            try replay(event)
        }
    }

    /// Appends one recorded event, checking it is exactly what the game would have recorded at that point.
    /// A failed check throws and leaves the game untouched.
    public mutating func replay(_ event: GameEvent) throws(GameReplayError) {
        guard event.sequence == events.count + 1 else {
            throw .unexpectedSequence(event, expected: events.count + 1)
        }
        if let last = lastEventTime, event.at < last {
            throw .timeWentBackwards(event, previous: last)
        }
        guard let command = event.command else {
            // The events without a command: a period end at its exact instant, and an administrator's reopen.
            guard event.commandID == nil else { throw .inconsistent(event) }
            switch event.kind {
            case .timeLimitReached where dueDeadline(at: event.at) == .timeLimit(event.at):
                _ = reachTimeLimit(at: event.at)
            case .confirmationExpired(let play) where dueDeadline(at: event.at) == .confirmation(play: play, event.at):
                _ = record(.confirmation(play: play, event.at))
            case .reopened where isLocked && dueDeadline(at: event.at) == nil:
                _ = try? reopen(at: event.at)
            case .crewMemberAdded(let member)
            where member.id == nextCrewMemberID && crewAdditionRejection(label: member.label) == nil
                && dueDeadline(at: event.at) == nil:
                _ = recordCrewMember(member, at: event.at)
            case .crewMemberRevoked(let id) where activeMember(id) != nil && dueDeadline(at: event.at) == nil:
                _ = try? revokeCrewMember(id, at: event.at)
            default:
                throw .inconsistent(event)
            }
            return
        }
        if acceptedCommands[command.id] != nil { throw .duplicateCommandID(event) }
        if dueDeadline(at: event.at) != nil { throw .missingTimeLimit(event) }
        if let error = crewRejection(of: command.action, by: event.member) { throw .rejected(event, error) }
        if let error = rejection(of: command.action, by: event.member, at: event.at) { throw .rejected(event, error) }
        if case .undo(let undoes) = event.kind, undoTarget(by: event.member).map(sequence(of:)) != undoes {
            throw .inconsistent(event)
        }
        let recorded = perform(command, by: event.member, at: event.at)
        assert(recorded == event, "Invalid state: replayed \(event) as \(recorded)")
    }
}
