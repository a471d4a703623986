import CourtsideJournal
import CourtsideModel
import CourtsideViewModels

/// The local mode's state: show before durable, many writes in flight (docs/server.md, "Durability").
///
/// Completions arrive in submission order (one submitting thread per game). A reply is owed until every write
/// submitted up to its command is durable. After a write fails, every write that fails from then on joins the writes
/// to store again; once nothing is in flight the retry timer is armed, and each firing submits the first of them
/// (one at a time, so their order holds); the last success ends the failure.
struct LocalWrites {
    /// A reply owed once `afterWrites` writes are completed.
    struct OwedReply {
        let afterWrites: Int
        let reply: CommandReply
        let request: CommandRequest
    }

    /// From the first failed write (`at`, its number) until every failed write (`toRetry`, oldest first) is stored;
    /// `retrying`: the first of them is submitted again and not yet answered.
    struct Failure {
        let at: Int
        var toRetry: [JournalWrite]
        var retrying: Bool
    }

    /// Writes submitted so far.
    var submitted = 0
    /// Writes completed so far, stored or not.
    var confirmed = 0
    /// The writes in flight, oldest first (a failed one is kept for the retry).
    var inFlight: [JournalWrite] = []
    var failure: Failure?
    /// Commands waiting for room among the writes in flight.
    var waiting: [CommandRequest] = []
    var owed: [OwedReply] = []
    /// The work the shell is applying (its `shown` report comes before anything else).
    var showing = false

    var unconfirmed: Int { submitted - confirmed }
}

extension GameOwnerStateMachine {
    mutating func localArrived(_ request: CommandRequest, _ local: inout LocalWrites) -> [GameOwnerAction] {
        if isFailed { return [.answer(request, failedRefusal(request))] }
        guard local.waiting.isEmpty, !local.showing, local.unconfirmed < limits.maxUnconfirmedWrites else {
            guard local.waiting.count < limits.maxWaitingCommands else {
                return [
                    .answer(
                        request,
                        .refusal(
                            .unavailable, "too many commands are waiting for the disk; retry shortly", for: request))
                ]
            }
            local.waiting.append(request)
            return []
        }
        local.showing = true
        return [.show(.command(request))]
    }

    /// The batch is shown: publish it, journal it (its events with the `seq` that shows them, or the `seq` alone as
    /// the watermark when only `time` changed), owe the reply, take the next command waiting.
    mutating func localShown(_ work: GameOwnerWork, _ effects: GameEffects, _ local: inout LocalWrites)
        -> [GameOwnerAction]
    {
        local.showing = false
        var actions: [GameOwnerAction] = []
        if let patch = effects.patch { actions.append(.publish(patch)) }
        if !effects.events.isEmpty {
            let seq = view.seq
            actions += localSubmit(
                .appendEvents(effects.events.map { JournaledEvent($0, presentationSequence: seq) }, toGame: gameID),
                &local)
        } else if effects.patch != nil {
            actions += localSubmit(.recordPresentationSequence(view.seq, forGame: gameID), &local)
        }
        if case .command(let request) = work, let reply = effects.reply {
            local.owed.append(
                LocalWrites.OwedReply(afterWrites: local.submitted, reply: restored(reply), request: request))
        }
        actions += localReleaseReplies(&local)
        actions += tickActions()
        actions += localTakeWaiting(&local)
        return actions
    }

    mutating func localSubmit(_ write: JournalWrite, _ local: inout LocalWrites) -> [GameOwnerAction] {
        local.submitted += 1
        local.inFlight.append(write)
        return [.journal(write)]
    }

    mutating func localCompleted(_ result: Result<Void, JournalError>, _ local: inout LocalWrites)
        -> [GameOwnerAction]
    {
        guard !local.inFlight.isEmpty else {
            preconditionFailure("Invalid state: a completion with no write in flight")
        }
        local.confirmed += 1
        let write = local.inFlight.removeFirst()
        var actions: [GameOwnerAction] = []
        switch (local.failure, result) {
        case (_, .success):
            break
        case (nil, .failure(let error)):
            local.failure = LocalWrites.Failure(at: local.confirmed, toRetry: [write], retrying: false)
            isFailed = true
            actions.append(.reportFailure("\(error)"))
            actions += tickActions()
        case (var failure?, .failure):
            failure.toRetry.append(write)
            local.failure = failure
        }
        if local.failure != nil, local.inFlight.isEmpty, !retryArmed {
            retryArmed = true
            actions.append(.arm(.retry, after: limits.storageRetryInterval))
        }
        actions += localReleaseReplies(&local)
        actions += localTakeWaiting(&local)
        return actions
    }

    /// The next waiting command when there is room: refused at once while archived or failed, else shown.
    mutating func localTakeWaiting(_ local: inout LocalWrites) -> [GameOwnerAction] {
        var actions: [GameOwnerAction] = []
        while !local.showing, !local.waiting.isEmpty, local.unconfirmed < limits.maxUnconfirmedWrites {
            let next = local.waiting.removeFirst()
            if isArchived {
                actions.append(.answer(next, archivedRefusal(next)))
            } else if isFailed {
                actions.append(.answer(next, failedRefusal(next)))
            } else {
                local.showing = true
                actions.append(.show(.command(next)))
            }
        }
        return actions
    }

    /// Releases, in command order, every reply whose writes are all completed. Once a write failed, a command whose
    /// writes include it (or come after it) is answered `unavailable`, never acked.
    mutating func localReleaseReplies(_ local: inout LocalWrites) -> [GameOwnerAction] {
        var actions: [GameOwnerAction] = []
        var released = 0
        for owed in local.owed {
            if let failedAt = local.failure?.at, owed.afterWrites >= failedAt {
                if case .accepted = owed.reply {
                    actions.append(
                        .answer(
                            owed.request,
                            .refusal(.unavailable, "game \(gameID) could not be saved", for: owed.request)))
                } else {
                    actions.append(.answer(owed.request, owed.reply))
                }
            } else if owed.afterWrites <= local.confirmed {
                actions.append(.answer(owed.request, owed.reply))
            } else {
                break
            }
            released += 1
        }
        local.owed.removeFirst(released)
        return actions
    }

    mutating func localRetryTimerFired(_ local: inout LocalWrites) -> [GameOwnerAction] {
        guard var failure = local.failure, !failure.retrying, let first = failure.toRetry.first,
            local.inFlight.isEmpty
        else { return [] }
        failure.retrying = true
        local.failure = failure
        return [.journalAgain(first)]
    }

    mutating func localRetryCompleted(_ result: Result<Void, JournalError>, _ local: inout LocalWrites)
        -> [GameOwnerAction]
    {
        guard var failure = local.failure, failure.retrying else {
            preconditionFailure("Invalid state: a retry completed while \(String(describing: local.failure))")
        }
        switch result {
        case .failure(.closed):
            // The server stops: the next start reads the truth back from the journal.
            failure.retrying = false
            local.failure = failure
            return []
        case .failure(let error):
            failure.retrying = false
            local.failure = failure
            retryArmed = true
            return [.warn("journal write retry failed", error), .arm(.retry, after: limits.storageRetryInterval)]
        case .success:
            failure.toRetry.removeFirst()
            if let next = failure.toRetry.first {
                local.failure = failure
                return [.journalAgain(next)]
            }
            // Every published batch is stored: memory and disk agree again, the game takes commands.
            local.failure = nil
            isFailed = false
            return [.reportRecovery] + tickActions() + localTakeWaiting(&local)
        }
    }

    func failedRefusal(_ request: CommandRequest) -> CommandReply {
        .refusal(
            .unavailable, "game \(gameID) could not be saved; it takes no commands until its writes are stored",
            for: request)
    }
}
