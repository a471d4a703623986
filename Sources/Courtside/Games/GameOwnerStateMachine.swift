import CourtsideJournal
import CourtsideModel
import CourtsideViewModels

/// Everything a game's owner decides, as a value type: events in, actions out (`GameOwnerAction`); `GameOwner`
/// only performs the actions. One machine serves both journals through its mode (docs/journal.md, "One owner, two
/// journals"):
///
/// - **local** (a journal of this node's own, SQLite): show before durable. A command is applied and published at
///   once, its batch journaled, up to `maxUnconfirmedWrites` writes in flight; its reply waits until every write up
///   to it is durable, in command order. A failed write makes the game *failed* (commands refused, the failed
///   writes stored again every `storageRetryInterval`, in order) until memory and disk agree again.
/// - **shared** (a log several nodes append to, Redis): store before show. One piece of work in flight: its events
///   are proposed on a copy, appended, and only the stored batch is shown, the same way on every node; a conflict
///   (another node wrote first) catches up from the log and performs the same work again.
///
/// Both modes answer the same situations the same way: a retried command id gets the answer it got (the view
/// model's memory: accepted ids for the game's life, refused ones for the last `rememberedRefusalLimit`), the
/// accepted ids of before a restart keep their `seq` (`restoredAcks`), the archive is journaled in order after the
/// work before it, and one tick is armed for the model's next deadline.
///
/// A third mode, **relayed** (a game a venue node relays to this public node: docs/relay.md), only follows: it
/// refuses every command (`relayed_game`, naming the venue), arms no tick (time passes only through relayed
/// events), writes nothing (the relay stores the batches), and applies each stored batch as shared mode applies
/// another node's (`remoteBatch`), so its patches are the venue's.
struct GameOwnerStateMachine {
    enum Mode: Equatable {
        case local
        case shared
        /// Relayed from the venue `venue`.
        case relayed(venue: String)
    }

    /// The mode's own state (partial data inside the enum).
    enum Writes {
        case local(LocalWrites)
        case shared(SharedWrites)
        /// A relayed game writes nothing.
        case relayed(venue: String)
        /// Only while an event changes the mode's state in place (no copy of its arrays).
        case modifying
    }

    let gameID: GameID
    let limits: GameLimits
    private(set) var isArchived: Bool
    /// What the game shows, as of the shell's last report.
    private(set) var view: GameOwnerView
    /// The deadline the tick timer is armed for (nil: not armed).
    private(set) var armedTick: Timestamp?
    /// The ack `seq` of every command accepted before a restart (from the journal): a game rebuilt from its events
    /// knows those ids, this knows the numbers it answered them with.
    let restoredAcks: [CommandID: Int]
    /// Whether a local write failed and is not yet stored again (commands are refused meanwhile).
    var isFailed = false
    /// An archive the shared log refused for now, to append again when the retry timer fires.
    var pendingArchive: Timestamp?
    /// Whether the retry timer is armed.
    var retryArmed = false
    /// Stored events this node's rules refused: it follows the shared log no more (the failure is reported).
    private(set) var hasDiverged = false
    var writes: Writes

    init(
        gameID: GameID, mode: Mode, view: GameOwnerView, isArchived: Bool, restoredAcks: [CommandID: Int],
        limits: GameLimits
    ) {
        self.gameID = gameID
        self.limits = limits
        self.view = view
        self.isArchived = isArchived
        self.restoredAcks = restoredAcks
        switch mode {
        case .local: writes = .local(LocalWrites())
        case .shared: writes = .shared(SharedWrites())
        case .relayed(let venue): writes = .relayed(venue: venue)
        }
    }

    var mode: Mode {
        switch writes {
        case .local: .local
        case .shared: .shared
        case .relayed(let venue): .relayed(venue: venue)
        case .modifying: preconditionFailure("Invalid state: the mode read while it changes")
        }
    }

    // MARK: Events

    /// The owner is in place: arm the tick.
    mutating func started() -> [GameOwnerAction] {
        tickActions()
    }

    /// A command (or an administrative change: a reopen, a crew member added or revoked) arrived.
    mutating func arrived(_ request: CommandRequest) -> [GameOwnerAction] {
        if isArchived { return [.answer(request, archivedRefusal(request))] }
        switch writes {
        case .local: return withLocal { $0.localArrived(request, &$1) }
        case .shared: return withShared { $0.sharedArrived(.command(request), &$1) }
        case .relayed(let venue): return [.answer(request, relayedRefusal(request, venue: venue))]
        case .modifying: preconditionFailure("Invalid state: an event while another is handled")
        }
    }

    /// The view model applied the work (local): what it did, and what the game shows now.
    mutating func shown(_ work: GameOwnerWork, _ effects: GameEffects, view: GameOwnerView) -> [GameOwnerAction] {
        self.view = view
        return withLocal { $0.localShown(work, effects, &$1) }
    }

    /// The work's events as computed on a copy (shared).
    mutating func proposed(_ proposal: GameOwnerProposal) -> [GameOwnerAction] {
        withShared { $0.sharedProposed(proposal, &$1) }
    }

    /// One stored batch applied (shared): publish its patch, follow the next deadline, serve the joiners waiting.
    mutating func storedShown(_ effects: GameEffects, view: GameOwnerView) -> [GameOwnerAction] {
        self.view = view
        var actions: [GameOwnerAction] = effects.patch.map { [.publish($0)] } ?? []
        actions += tickActions()
        actions.append(.serveAheadJoiners)
        return actions
    }

    /// Stored events the rules refuse: the game cannot follow the log any more.
    mutating func storedRefused(_ error: GameReplayError) -> [GameOwnerAction] {
        hasDiverged = true
        return [.reportFailure("stored events do not apply: \(error)")]
    }

    /// A write's completion (in submission order).
    mutating func journalCompleted(_ result: Result<Void, JournalError>) -> [GameOwnerAction] {
        switch writes {
        case .local: return withLocal { $0.localCompleted(result, &$1) }
        case .shared: return withShared { $0.sharedCompleted(result, &$1) }
        case .relayed: return []
        case .modifying: preconditionFailure("Invalid state: an event while another is handled")
        }
    }

    /// A timer fired.
    mutating func timerFired(_ timer: GameOwnerTimer) -> [GameOwnerAction] {
        switch (timer, writes) {
        case (.tick, _):
            guard let deadline = armedTick else { return [] }
            armedTick = nil
            guard !isArchived, !isFailed else { return [] }
            if case .relayed = writes { return [] }
            if mode == .local { return [.show(.tick(deadline))] }
            return withShared { $0.sharedArrived(.tick(deadline), &$1) }
        case (.retry, .local):
            retryArmed = false
            return withLocal { $0.localRetryTimerFired(&$1) }
        case (.retry, .shared):
            retryArmed = false
            return withShared { $0.sharedRetryTimerFired(&$1) }
        case (.catchUp, .shared):
            return withShared { $0.sharedCatchUpTimerFired(&$1) }
        case (.catchUp, _), (.retry, _):
            return []
        }
    }

    /// Archive the game at `instant`: from now on it refuses commands and time; the archive is journaled in order
    /// after the work before it.
    mutating func archive(at instant: Timestamp) -> [GameOwnerAction] {
        guard !isArchived else { return [] }
        isArchived = true
        var actions = tickActions()
        switch writes {
        case .local: actions += withLocal { $0.localSubmit(.archiveGame($0.gameID, at: instant), &$1) }
        case .shared: actions += withShared { $0.sharedArchive(at: instant, &$1) }
        case .relayed: break
        case .modifying: preconditionFailure("Invalid state: an event while another is handled")
        }
        return actions
    }

    /// Another node's whole stored batch (shared): applied when it follows what the game holds, skipped when held
    /// already, a catch-up when something between is missing.
    mutating func remoteBatch(_ events: [JournaledEvent]) -> [GameOwnerAction] {
        switch writes {
        case .shared, .relayed: break
        case .local, .modifying: return []
        }
        guard !hasDiverged else { return [] }
        guard let first = events.first(where: { $0.event.sequence > view.heldEvents }) else { return [] }
        guard first.event.sequence == view.heldEvents + 1 else { return gapSeen() }
        return Self.batches(events)
    }

    /// This node may be behind the shared log (a gap in the feed, a joiner ahead of it): catch up.
    mutating func gapSeen() -> [GameOwnerAction] {
        // A relayed game on a shared log reads it after what it holds, as shared mode does: on a cluster the node
        // the venue moved to may store a batch before its feed brought the previous node's last ones (on a single
        // node the shell has no shared log and reads nothing).
        if case .relayed = writes { return [.catchUp] }
        guard mode == .shared else { return [] }
        return withShared { $0.sharedGapSeen(&$1) }
    }

    /// The catch-up read's answer (shared).
    mutating func caughtUp(_ result: Result<[JournaledEvent], JournalError>) -> [GameOwnerAction] {
        if case .relayed = writes {
            // A failed read is tried again at the next batch that shows the gap.
            guard case .success(let events) = result else { return [] }
            return remoteBatch(events)
        }
        return withShared { $0.sharedCaughtUp(result, &$1) }
    }

    /// A failed write's answer when stored again (local).
    mutating func retryCompleted(_ result: Result<Void, JournalError>) -> [GameOwnerAction] {
        withLocal { $0.localRetryCompleted(result, &$1) }
    }

    // MARK: Shared by both modes

    /// Arms the tick for the model's next deadline (none while archived or failed), cancelling a stale one.
    mutating func tickActions() -> [GameOwnerAction] {
        var desired = isArchived || isFailed ? nil : view.nextDeadline
        if case .relayed = writes { desired = nil }
        guard desired != armedTick else { return [] }
        var actions: [GameOwnerAction] = armedTick == nil ? [] : [.cancel(.tick)]
        armedTick = desired
        if let desired { actions.append(.armTick(at: desired)) }
        return actions
    }

    /// A tick refused for now (the shared log busy or away): the same deadline again after `storageRetryInterval`.
    mutating func retryTick(_ deadline: Timestamp) -> [GameOwnerAction] {
        var actions: [GameOwnerAction] = armedTick == nil ? [] : [.cancel(.tick)]
        armedTick = deadline
        actions.append(.arm(.tick, after: limits.storageRetryInterval))
        return actions
    }

    /// An accepted reply with the `seq` that acked its id before a restart, if any.
    func restored(_ reply: CommandReply) -> CommandReply {
        if case .accepted(let id, _) = reply, let original = restoredAcks[id] {
            return .accepted(id: id, seq: original)
        }
        return reply
    }

    func relayedRefusal(_ request: CommandRequest, venue: String) -> CommandReply {
        .refusal(.relayedGame, WireErrorCode.relayedGameMessage(gameID, venue: venue), for: request)
    }

    func archivedRefusal(_ request: CommandRequest) -> CommandReply {
        .refusal(.gameArchived, "game \(gameID) is archived and takes no more commands", for: request)
    }

    /// Stored events cut into batches, one per presentation sequence (each shown as one patch).
    static func batches(_ events: [JournaledEvent]) -> [GameOwnerAction] {
        var actions: [GameOwnerAction] = []
        var start = events.startIndex
        while start < events.endIndex {
            let seq = events[start].presentationSequence
            let end = events[start...].firstIndex { $0.presentationSequence != seq } ?? events.endIndex
            actions.append(.showStored(Array(events[start..<end])))
            start = end
        }
        return actions
    }

    private mutating func withLocal(_ body: (inout Self, inout LocalWrites) -> [GameOwnerAction]) -> [GameOwnerAction] {
        guard case .local(var local) = writes else { preconditionFailure("Invalid state: a local event on \(writes)") }
        writes = .modifying
        let actions = body(&self, &local)
        writes = .local(local)
        return actions
    }

    private mutating func withShared(_ body: (inout Self, inout SharedWrites) -> [GameOwnerAction])
        -> [GameOwnerAction]
    {
        guard case .shared(var shared) = writes else {
            preconditionFailure("Invalid state: a shared event on \(writes)")
        }
        writes = .modifying
        let actions = body(&self, &shared)
        writes = .shared(shared)
        return actions
    }
}
