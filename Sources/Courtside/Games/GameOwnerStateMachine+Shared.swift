import CourtsideJournal
import CourtsideModel
import CourtsideViewModels

/// The shared mode's state: store before show, one piece of work in flight (docs/redis.md, "Several nodes on one
/// store").
///
/// A piece of work is proposed on a copy of the game and appended; only a stored batch is shown, the same way on
/// every node, so what a node shows is always a prefix of the log and nothing is ever rolled back. Then:
/// - stored: the batch is shown, the work answered, the next work starts;
/// - another node wrote first (a sequence conflict, or the command id stored through another node): catch up from
///   the game's stream, then propose the same work again against the new state, where it may be refused by the rules
///   or be a repeat answered with its original `seq`. A conflict never answers the work and never loses it;
/// - the store is unreachable: the work is answered `unavailable`, and since the append may have been stored
///   anyway, the next append is preceded by a catch-up (`isBehind`).
struct SharedWrites {
    enum Phase {
        case idle
        /// The shell computes the work's events (`proposed` comes before anything else).
        case proposing(GameOwnerWork)
        /// The batch (nil for an archive) is appended; the reply goes to `acknowledging` once it is stored, and the
        /// game the proposal made is shown then.
        case appending(GameOwnerWork, [JournaledEvent]?, acknowledging: CommandID?, making: Game?)
        /// Reading the log; the work (if any) is proposed again afterwards.
        case catchingUp(GameOwnerWork?)
    }

    /// Conflicts one work may meet after a catch-up that found nothing new: the log refuses for a reason catching
    /// up cannot fix, so the work is refused rather than retried in a loop.
    static let maxFruitlessConflicts = 3
    /// Conflicts one work may meet in all. Each catch-up brings this node level with the log, so another conflict
    /// means another node wrote again in between: a node with a queue of its own is one round trip ahead of one that
    /// must catch up first, so a work may lose several times while the other node drains its queue (bounded by the
    /// scorers' rate limits). The bound keeps it from waiting forever.
    static let maxConflicts = 1_000

    var phase: Phase = .idle
    /// Whether this node may hold less than the log has (an append whose outcome is unknown, a gap in the feed).
    var isBehind = false
    var waiting: [GameOwnerWork] = []
    var conflicts = 0
    var fruitlessConflicts = 0
    /// Whether the last catch-up applied anything.
    var lastCatchUpProgressed = true
    /// The events held when the last append met a conflict (a catch-up that does not pass it found nothing).
    var conflictBase: Int?

    var isIdle: Bool {
        if case .idle = phase { return true }
        return false
    }
}

extension GameOwnerStateMachine {
    /// New work: performed now when nothing is in flight, else queued (refused when the queue is full).
    mutating func sharedArrived(_ work: GameOwnerWork, _ shared: inout SharedWrites) -> [GameOwnerAction] {
        guard shared.isIdle else {
            guard shared.waiting.count < limits.maxWaitingCommands else {
                return sharedRefuse(work, reason: "too many commands are waiting for the store")
            }
            shared.waiting.append(work)
            return []
        }
        return sharedStart(work, &shared)
    }

    mutating func sharedArchive(at instant: Timestamp, _ shared: inout SharedWrites) -> [GameOwnerAction] {
        // The commands waiting would be refused when their turn came: refuse them now, and archive next.
        var actions: [GameOwnerAction] = []
        for case .command(let request) in shared.waiting { actions.append(.answer(request, archivedRefusal(request))) }
        shared.waiting = [.archive(instant)]
        if shared.isIdle { actions += sharedNext(&shared) }
        return actions
    }

    mutating func sharedProposed(_ proposal: GameOwnerProposal, _ shared: inout SharedWrites) -> [GameOwnerAction] {
        guard case .proposing(let work) = shared.phase else { preconditionFailure("Invalid state: \(shared.phase)") }
        switch (proposal, work) {
        case (.answer(let reply), .command(let request)):
            return [.answer(request, restored(reply))] + sharedNext(&shared)
        case (.nothing, _), (.answer, _):
            return sharedNext(&shared) + tickActions()
        case (.append(let events, let acknowledging, let game), _):
            let seq = view.seq + 1
            let journaled = events.map { JournaledEvent($0, presentationSequence: seq) }
            shared.phase = .appending(work, journaled, acknowledging: acknowledging, making: game)
            return [.journal(.appendEvents(journaled, toGame: gameID))]
        }
    }

    mutating func sharedCompleted(_ result: Result<Void, JournalError>, _ shared: inout SharedWrites)
        -> [GameOwnerAction]
    {
        guard case .appending(let work, let batch, let acknowledging, let proposed) = shared.phase else {
            preconditionFailure("Invalid state: an append answered while \(shared.phase)")
        }
        guard let batch else { return sharedArchiveCompleted(result, work, &shared) }
        switch result {
        case .success:
            // Stored as proposed: shown from the game the proposal made, so the events are applied once.
            var actions: [GameOwnerAction] = [proposed.map { .showProposed(batch, $0) } ?? .showStored(batch)]
            if case .command(let request) = work, let acknowledging {
                actions.append(.answer(request, .accepted(id: acknowledging, seq: batch[0].presentationSequence)))
            }
            return actions + sharedNext(&shared)
        case .failure(.unexpectedSequence), .failure(.duplicateCommandID), .failure(.presentationSequenceWentBack):
            // Another node wrote first (or stored this command id): catch up, then the same work again.
            shared.conflictBase = batch[0].event.sequence - 1
            shared.conflicts += 1
            if !shared.lastCatchUpProgressed { shared.fruitlessConflicts += 1 }
            guard shared.conflicts <= SharedWrites.maxConflicts,
                shared.fruitlessConflicts < SharedWrites.maxFruitlessConflicts
            else {
                shared.isBehind = true
                return sharedRefuse(work, reason: "other nodes kept writing first") + sharedNext(&shared)
            }
            shared.phase = .catchingUp(work)
            return [.catchUp]
        case .failure(.gameArchived):
            // Archived through another node: the archive reaches this node with the log.
            if case .command(let request) = work {
                return [.answer(request, archivedRefusal(request))] + sharedNext(&shared)
            }
            return sharedNext(&shared)
        case .failure(.closed):
            // The server is stopping: answer, and try nothing more (the log is the truth for the next start).
            if case .command(let request) = work {
                return [.answer(request, .refusal(.unavailable, "the server is stopping", for: request))]
                    + sharedNext(&shared)
            }
            return sharedNext(&shared)
        case .failure(let error):
            // It may have been stored (a reply lost with the connection): catch up before the next append.
            shared.isBehind = true
            return [.warn("shared journal append failed; answered unavailable", error)]
                + sharedRefuse(work, reason: "\(error)") + sharedNext(&shared)
        }
    }

    /// The archive's write answered: done (stored, or archived already, or the server stops), else tried again.
    private mutating func sharedArchiveCompleted(
        _ result: Result<Void, JournalError>, _ work: GameOwnerWork, _ shared: inout SharedWrites
    ) -> [GameOwnerAction] {
        switch result {
        case .success, .failure(.gameArchived), .failure(.closed):
            return sharedNext(&shared)
        case .failure(let error):
            return [.warn("archiving a game failed; tried again shortly", error)] + sharedRefuse(work, reason: "")
                + sharedNext(&shared)
        }
    }

    mutating func sharedGapSeen(_ shared: inout SharedWrites) -> [GameOwnerAction] {
        shared.isBehind = true
        guard shared.isIdle else { return [] }
        shared.phase = .catchingUp(nil)
        return [.catchUp]
    }

    mutating func sharedCaughtUp(_ result: Result<[JournaledEvent], JournalError>, _ shared: inout SharedWrites)
        -> [GameOwnerAction]
    {
        guard case .catchingUp(let work) = shared.phase else {
            preconditionFailure("Invalid state: a catch-up answered while \(shared.phase)")
        }
        switch result {
        case .success(let events):
            let reach = max(view.heldEvents, events.last?.event.sequence ?? 0)
            // Progress since the conflict, whether from this read or from the feed meanwhile.
            let progressed = shared.conflictBase.map { reach > $0 } ?? true
            shared.conflictBase = nil
            shared.isBehind = false
            shared.lastCatchUpProgressed = progressed
            let shown = hasDiverged ? [] : Self.batches(events)
            guard let work else { return shown + sharedNext(&shared) }
            return shown + sharedBegin(work, &shared)
        case .failure(let error):
            shared.phase = .idle
            // The store is away: the work, and the work queued behind it, would meet it too.
            var actions: [GameOwnerAction] = []
            for waiting in (work.map { [$0] } ?? []) + shared.waiting {
                actions += sharedRefuse(waiting, reason: "its store cannot be reached")
            }
            shared.waiting = []
            guard error != .closed else { return actions }
            // Still behind the log: try again shortly, so a node without commands of its own catches up too.
            return actions + [
                .warn("shared journal catch-up failed", error),
                .arm(.catchUp, after: limits.storageRetryInterval),
            ]
        }
    }

    mutating func sharedCatchUpTimerFired(_ shared: inout SharedWrites) -> [GameOwnerAction] {
        guard shared.isBehind, shared.isIdle else { return [] }
        return sharedGapSeen(&shared)
    }

    mutating func sharedRetryTimerFired(_ shared: inout SharedWrites) -> [GameOwnerAction] {
        guard let instant = pendingArchive else { return [] }
        pendingArchive = nil
        guard shared.isIdle else {
            shared.waiting.insert(.archive(instant), at: 0)
            return []
        }
        return sharedStart(.archive(instant), &shared)
    }

    /// Answers the work `unavailable` without performing it: a command is answered, a tick and an archive are tried
    /// again after `storageRetryInterval` (the time limit is recorded by whichever node's tick is stored first).
    mutating func sharedRefuse(_ work: GameOwnerWork, reason: String) -> [GameOwnerAction] {
        switch work {
        case .command(let request):
            return [
                .answer(
                    request,
                    .refusal(.unavailable, "game \(gameID) could not be saved (\(reason)); retry shortly", for: request)
                )
            ]
        case .tick(let deadline):
            return retryTick(deadline)
        case .archive(let instant):
            pendingArchive = instant
            guard !retryArmed else { return [] }
            retryArmed = true
            return [.arm(.retry, after: limits.storageRetryInterval)]
        }
    }

    private mutating func sharedStart(_ work: GameOwnerWork, _ shared: inout SharedWrites) -> [GameOwnerAction] {
        shared.conflicts = 0
        shared.fruitlessConflicts = 0
        shared.lastCatchUpProgressed = true
        if shared.isBehind {
            shared.phase = .catchingUp(work)
            return [.catchUp]
        }
        return sharedBegin(work, &shared)
    }

    /// Proposes the work (or appends the archive), unless the game was archived meanwhile.
    private mutating func sharedBegin(_ work: GameOwnerWork, _ shared: inout SharedWrites) -> [GameOwnerAction] {
        switch work {
        case .command(let request) where isArchived:
            return [.answer(request, archivedRefusal(request))] + sharedNext(&shared)
        case .tick where isArchived:
            return sharedNext(&shared)
        case .archive(let instant):
            shared.phase = .appending(work, nil, acknowledging: nil, making: nil)
            return [.journal(.archiveGame(gameID, at: instant))]
        case .command, .tick:
            shared.phase = .proposing(work)
            return [.propose(work)]
        }
    }

    /// The next waiting work, or (behind with nothing to do) a catch-up, so other nodes' batches held back as a gap
    /// do not wait for the next command.
    private mutating func sharedNext(_ shared: inout SharedWrites) -> [GameOwnerAction] {
        shared.phase = .idle
        guard !shared.waiting.isEmpty else {
            guard shared.isBehind else { return [] }
            shared.phase = .catchingUp(nil)
            return [.catchUp]
        }
        return sharedStart(shared.waiting.removeFirst(), &shared)
    }
}
