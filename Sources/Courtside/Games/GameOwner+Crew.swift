import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The table crew on the owner's loop (docs/protocol.md, "The table crew"): administrative changes, who is
/// connected, the crew messages, and revocation closing a member's sockets.
extension GameOwner {
    /// The close code of a socket whose crew member was revoked: in the private-use range (RFC 6455 §7.4.2), "401"
    /// because the credential is no longer valid.
    static let revokedCloseCode: UInt16 = 4401

    /// Performs an administrative change (a reopen, a crew member added or revoked) as one batch, like a command;
    /// the ack carries the `seq` that shows it.
    func administer(_ request: CommandRequest, now: Timestamp) -> CommandReply {
        guard let administration = request.administration else { preconditionFailure("Invalid state: a command") }
        do {
            let outcome = try viewModel.record(now: now) { (game: inout Game) throws(GameError) in
                try administration.perform(on: &game, now: now)
            }
            return .accepted(id: administration.replyID(for: outcome.event), seq: presenter.seq)
        } catch {
            return .rejected(id: nil, failure: CommandFailure(error))
        }
    }

    /// Watches the events the game records, from any path (this node's commands, a shared log's batches): a crew
    /// event closes a revoked member's sockets and sends the crew list.
    func bindCrewRoom() {
        viewModel.recordedEvents.bind { [unowned self] events in
            var changed = false
            for event in events {
                switch event.kind {
                case .crewMemberAdded:
                    changed = true
                case .crewMemberRevoked(let member):
                    changed = true
                    for seat in crewRoom.unseat(member) {
                        seat.socket.run { socket in socket.revoked() }
                    }
                default:
                    break
                }
            }
            if changed { crewChanged() }
        }.store(in: crewRoom.bindings)
    }

    /// A scorer socket authenticated (as `member`, or with the scorer token).
    func crewSocketJoined(_ key: ObjectIdentifier, _ socket: LoopBound<ScorerSocket>, member: CrewMemberID?) {
        guard crewRoom.seat(key, CrewRoom.Seat(member: member, socket: socket)) else {
            return
        }
        if member != nil || !viewModel.game.crew.isEmpty { crewChanged() }
    }

    /// A scorer socket closed.
    func crewSocketLeft(_ key: ObjectIdentifier) {
        guard let seat = crewRoom.seats[key], crewRoom.leave(key) else { return }
        if seat.member != nil { crewChanged() }
    }

    /// The crew list, as the crew message and `GET /api/games/{id}/crew` show it.
    func crewMembersJSON() -> JSONValue {
        let game = viewModel.game
        return .array(
            game.activeCrew.map { member in
                [
                    "member": .string(member.id.rawValue), "role": .string(member.role.rawValue),
                    "label": .string(member.label), "connected": .bool(crewRoom.isConnected(member.id)),
                    "lastCommandAt": game.lastCommandAt[member.id].map { .int(Int($0.milliseconds)) } ?? .null,
                ]
            })
    }

    /// The crew changed: send the list now, or at the end of the throttle's second.
    private func crewChanged() {
        guard !viewModel.game.crew.isEmpty else { return }
        switch crewRoom.throttle.changed(at: services.clock()) {
        case .send:
            sendCrewList()
        case .armTimer(let instant):
            let delay = max(instant.milliseconds(since: services.clock()), 0)
            crewRoom.timer = context.scheduleTimer(after: .milliseconds(delay)) { [unowned self] _ in
                crewRoom.timer = nil
                crewRoom.throttle.timerFired(at: services.clock())
                sendCrewList()
            }
        case .wait:
            break
        }
    }

    private func sendCrewList() {
        let message: JSONValue = [
            "v": .int(WireFormat.version), "type": "crew", "game": .string(id.rawValue), "members": crewMembersJSON(),
        ]
        let bytes = message.canonicalBytes
        for seat in crewRoom.seats.values {
            seat.socket.run { socket in socket.send(json: bytes) }
        }
    }
}
