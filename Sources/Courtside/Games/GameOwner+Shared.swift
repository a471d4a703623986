import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// What the shared write path performs: a scorer's command (or an administrator's reopen), or the time-limit tick.
enum SharedWork {
    case command(CommandRequest)
    case tick(Timestamp)
}

/// A batch appended to the shared log and not yet answered: its events, the `seq` that shows them, and whom to ack.
struct SharedBatch {
    let events: [GameEvent]
    let seq: Int
    let reply: (request: CommandRequest, id: CommandID)?
}

/// The shared-log path of `GameOwner` (`SharedWriteState` decides; this performs). Every batch this node shows was
/// stored first, by this node or another, and is applied with `applyStored` at the instant of its last event, so
/// every node shows the same documents under the same numbers and sends byte-identical patches (docs/redis.md,
/// "Several nodes on one store").
extension GameOwner {
    /// Work for the shared path, in arrival order.
    func sharedArrived(_ work: SharedWork) {
        guard var state = sharedWrites else { return }
        let actions = state.arrived(work)
        sharedWrites = state
        perform(actions)
    }

    /// Stored events of this game from the shared feed (another node's batches, in order).
    func receiveStored(_ events: [JournaledEvent]) {
        let held = viewModel.game.events.count
        guard let first = events.first(where: { $0.event.sequence > held }) else { return }
        guard first.event.sequence == held + 1 else {
            // Something between is missing (an append of this node whose answer was lost, a trimmed feed).
            changeSharedState { $0.gapSeen() }
            return
        }
        applyStoredEvents(events)
    }

    func changeSharedState(
        _ event: (inout SharedWriteState<SharedWork>) -> [SharedWriteState<SharedWork>.Action]
    ) {
        guard var state = sharedWrites else { return }
        let actions = event(&state)
        sharedWrites = state
        perform(actions)
    }

    private func perform(_ actions: [SharedWriteState<SharedWork>.Action]) {
        for action in actions {
            switch action {
            case .perform(let work): performShared(work)
            case .catchUp: catchUp()
            case .refuse(let work, let refusal): refuseUnavailable(work, reason: Self.reason(refusal))
            }
        }
    }

    /// Computes the work's events on a copy of the game and appends them; answers at once when there is nothing to
    /// store (a refusal, a repeated command id, a tick with nothing due).
    private func performShared(_ work: SharedWork) {
        let now = services.clock()
        var game = viewModel.game
        switch work {
        case .tick(let deadline):
            guard let event = game.advance(to: deadline) else {
                changeSharedState { $0.finished() }
                scheduleTick()
                return
            }
            appendShared(SharedBatch(events: [event], seq: seq + 1, reply: nil))
        case .command(let request) where request.administration != nil:
            do {
                guard let administration = request.administration else { preconditionFailure("Invalid state") }
                let outcome = try administration.perform(on: &game, now: now)
                appendShared(
                    SharedBatch(
                        events: outcome.newEvents, seq: seq + 1,
                        reply: (request, administration.replyID(for: outcome.event))))
            } catch {
                release(.rejected(id: nil, failure: CommandFailure(error)), for: request)
                changeSharedState { $0.finished() }
            }
        case .command(let request):
            switch request.decoded {
            case .none:
                preconditionFailure("Invalid state: an administrative change is matched above")
            case .failure(let rejection):
                release(rejection.reply, for: request)
                changeSharedState { $0.finished() }
            case .success(let command):
                do {
                    let outcome = try game.apply(command, by: request.issuer, at: now)
                    guard outcome.isDuplicate else {
                        appendShared(
                            SharedBatch(events: outcome.newEvents, seq: seq + 1, reply: (request, command.id)))
                        return
                    }
                    // Accepted before (here, through another node, or before a restart): the original answer.
                    let original = viewModel.acceptedRevision(of: command.id) ?? seq
                    release(.accepted(id: command.id, seq: original), for: request)
                } catch {
                    release(.rejected(id: command.id, failure: CommandFailure(error)), for: request)
                }
                changeSharedState { $0.finished() }
            }
        }
    }

    private func appendShared(_ batch: SharedBatch) {
        sharedBatch = batch
        let journaled = batch.events.map { JournaledEvent($0, presentationSequence: batch.seq) }
        let owner = LoopBound(self, loop: context.loop)
        services.journal.submit(.appendEvents(journaled, toGame: id)) { result in
            owner.loop.execute { _ in owner.value.sharedAppendCompleted(result) }
        }
    }

    private func sharedAppendCompleted(_ result: Result<Void, JournalError>) {
        guard let batch = sharedBatch else { preconditionFailure("Invalid state: an append answered twice") }
        sharedBatch = nil
        switch result {
        case .success:
            applyStoredEvents(batch.events.map { JournaledEvent($0, presentationSequence: batch.seq) })
            if let (request, commandID) = batch.reply {
                release(.accepted(id: commandID, seq: batch.seq), for: request)
            }
            changeSharedState { $0.appendSucceeded() }
        case .failure(.unexpectedSequence), .failure(.duplicateCommandID), .failure(.presentationSequenceWentBack):
            // Another node wrote first (or stored this command id): catch up, then the same work again.
            sharedConflictBase = batch.events[0].sequence - 1
            changeSharedState { $0.appendConflicted() }
        case .failure(.gameArchived):
            if let (request, _) = batch.reply {
                release(
                    .refusal(.gameArchived, "game \(id) is archived and takes no more commands", for: request),
                    for: request)
            }
            changeSharedState { $0.finished() }
        case .failure(.closed):
            // The server is stopping: answer, and try nothing more (the log is the truth for the next start).
            if let (request, _) = batch.reply {
                release(.refusal(.unavailable, "the server is stopping", for: request), for: request)
            }
            changeSharedState { $0.finished() }
        case .failure(let error):
            services.logger.warning(
                "shared journal append failed; answered unavailable", ["game": id.rawValue, "error": "\(error)"])
            refuseUnavailable(batch.reply.map { .command($0.request) } ?? .tick(batch.events[0].at), reason: "\(error)")
            changeSharedState { $0.appendFailed() }
        }
    }

    /// Reads the log after what this node holds and applies it.
    private func catchUp() {
        guard let shared = services.shared else { return }
        let owner = LoopBound(self, loop: context.loop)
        shared.events(ofGame: id, after: viewModel.game.events.count) { result in
            owner.loop.execute { _ in owner.value.caughtUp(result) }
        }
    }

    private func caughtUp(_ result: Result<[JournaledEvent], JournalError>) {
        switch result {
        case .success(let events):
            services.metrics.sharedCatchUp()
            applyStoredEvents(events)
            // Progress since the conflict, whether from this read or from the feed meanwhile.
            let progressed = sharedConflictBase.map { viewModel.game.events.count > $0 } ?? true
            sharedConflictBase = nil
            changeSharedState { $0.caughtUp(progressed: progressed) }
        case .failure(let error):
            changeSharedState { $0.catchUpFailed() }
            if error == .closed { return }
            services.logger.warning("shared journal catch-up failed", ["game": id.rawValue, "error": "\(error)"])
            // Still behind the log: try again shortly, so a node without commands of its own also catches up.
            _ = context.scheduleTimer(after: services.limits.storageRetryInterval) { [unowned self] _ in
                guard let state = sharedWrites, state.isBehind, state.isIdle else { return }
                changeSharedState { $0.gapSeen() }
            }
        }
    }

    /// Applies stored events, one batch per presentation sequence, skipping those already held.
    func applyStoredEvents(_ events: [JournaledEvent]) {
        var start = events.startIndex
        while start < events.endIndex {
            let seq = events[start].presentationSequence
            let end = events[start...].firstIndex { $0.presentationSequence != seq } ?? events.endIndex
            do {
                try viewModel.applyStored(events[start..<end].map(\.event), revision: seq)
            } catch {
                // The log holds what this node's rules refuse: it cannot follow this game any more.
                services.logger.error(
                    "stored events do not apply; the game stops following the shared log",
                    ["game": id.rawValue, "error": "\(error)"])
                services.reportFailure(id, "stored events do not apply: \(error)")
                return
            }
            start = end
        }
        scheduleTick()
        if !aheadJoiners.waiting.isEmpty { changeAheadJoiners { $0.advanced(to: seq) } }
    }

    private static func reason(_ refusal: SharedWriteState<SharedWork>.Refusal) -> String {
        switch refusal {
        case .unreachable: "its store cannot be reached"
        case .queueFull: "too many commands are waiting for the store"
        case .contended: "other nodes kept writing first"
        }
    }

    private func refuseUnavailable(_ work: SharedWork, reason: String) {
        switch work {
        case .command(let request):
            release(
                .refusal(
                    .unavailable, "game \(id) could not be saved (\(reason)); retry shortly", for: request),
                for: request)
        case .tick(let deadline):
            // The time limit is recorded by whichever node's tick is stored first; try again shortly.
            if let tickTimer { context.cancelTimer(tickTimer) }
            tickTimer = context.scheduleTimer(after: services.limits.storageRetryInterval) { [unowned self] _ in
                tickTimer = nil
                tick(at: deadline)
            }
        }
    }
}
