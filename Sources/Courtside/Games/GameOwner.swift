import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The one authoritative owner of a game (ISSUE5 §3): its view model and presenter, its feed, its resume window and
/// its journal writes, all on one loop.
///
/// - Commands are applied one at a time in arrival order (`submit`); each batch of changes becomes one patch
///   message, encoded once and published to the feed at once: spectators never wait on the disk or on a scorer.
/// - Each batch is one journal write: its events with the patch `seq` as their presentation sequence, or (a batch
///   without events, such as a refused command refreshing `time`) the `seq` as the game's watermark. So the
///   journal knows every number the game published once its writes are durable.
/// - Replies wait for the disk: a reply is released only when every write submitted up to its command is durable,
///   in command order. A retried CID is answered by the view model with the original `seq`; it too waits for the
///   writes before it, so a retry never acks an event that is not yet stored.
/// - A failed write makes the game *failed*: its memory is ahead of its disk, so it stops taking commands
///   (`unavailable`), answers the commands waiting for that write `unavailable` instead of an ack, keeps serving
///   spectators what they already saw, and logs the error. It then stores the failed writes again, in order, every
///   `storageRetryInterval` until the journal takes them (a full disk with room again), and takes commands again;
///   a restart meanwhile reads the truth back from the journal.
/// - Time passes only at the time-limit deadline (not every second): `time` is refreshed by every patch anyway and
///   pages animate from `clock`, and this keeps every published number tied to a journal write.
///
/// Loop-confined.
final class GameOwner {
    let id: GameID
    let context: LoopContext
    let viewModel: GameScoreboardEditorViewModel
    let presenter: GamePresenter
    let feed: GameFeed
    let scorerTokenSHA256: [UInt8]
    /// Archived at start or by `archive()` (issue 13 §6): readable, takes no more commands.
    private(set) var isArchived: Bool
    /// Whether a journal write failed and is not yet stored by a retry (see the type's documentation).
    var isFailed: Bool { writes.failedAtWrite != nil }
    /// The journal writes: counts for the replies, and what to store again after a failure.
    private var writes = GameWriteLedger()
    private var retryTimer: TimerID?
    private var window: PatchWindow
    let services: GameServices
    private let bindings = DynamicBindingBag()
    private var collectedEvents: [GameEvent] = []
    private var pendingReplies: [PendingReply] = []
    private var waitingCommands: [CommandRequest] = []
    var tickTimer: TimerID?
    private var tickDeadline: Timestamp?
    /// The shared-log write path (`SharedWriteState`), nil on a journal of this node's own.
    var sharedWrites: SharedWriteState<SharedWork>?
    /// The batch whose append is in flight on the shared path.
    var sharedBatch: SharedBatch?
    /// The events this node held when its last append met a conflict (a catch-up that does not pass it found
    /// nothing the conflict could be about).
    var sharedConflictBase: Int?
    /// The ack `seq` of every command accepted before a restart (from the journal): the view model rebuilt from
    /// the events knows those ids but not the numbers it answered them with.
    private let restoredAcks: [CommandID: Int]
    /// Joiners resuming from a `seq` this node has not reached yet (a shared log only).
    var aheadJoiners: AheadJoiners<LoopBound<any JoiningSubscriber>>
    /// The warning that a resume got an older snapshot, at most once a minute for this game: any anonymous
    /// spectator can cause it with `since=` far ahead.
    var behindResumeLog = LogSampler(interval: .seconds(60))
    var aheadTimer: TimerID?
    private var cachedSnapshot: FeedMessage?
    /// The scorer sockets of the game and the crew presence they are sent (`GameOwner+Crew`).
    let crewRoom = CrewRoom()

    private struct PendingReply {
        /// The reply may go once this many writes are durable.
        let afterWrites: Int
        let reply: CommandReply
        let request: CommandRequest
    }

    /// An owner for `game` numbered from `seq`, showing the game as of `now`; `restored` when rebuilt from the
    /// journal (its document at `seq` is then re-derived, so resumes from `seq` get a snapshot).
    init(
        game: Game, seq: Int, now: Timestamp, restored: Bool, restoredAcks: [CommandID: Int] = [:],
        scorerTokenSHA256: [UInt8], isArchived: Bool, services: GameServices, context: LoopContext
    ) {
        self.id = game.id
        self.restoredAcks = restoredAcks
        self.context = context
        self.services = services
        self.aheadJoiners = AheadJoiners(maxAhead: services.limits.resumeWindow)
        self.scorerTokenSHA256 = scorerTokenSHA256
        self.isArchived = isArchived
        let clock = services.clock
        viewModel = GameScoreboardEditorViewModel(
            game: game, now: now, clock: clock, revision: seq, acceptedRevisions: restoredAcks)
        presenter = GamePresenter(viewModel: viewModel)
        feed = GameFeed(group: services.group, metrics: services.metrics)
        // On a shared log every document this node shows is derived from stored batches, so a restored game's
        // document is the one every node published at `seq`, and resumes from it are exact.
        let exact = services.shared != nil
        window = PatchWindow(
            capacity: services.limits.resumeWindow, firstOwnSeq: restored && !exact ? seq + 1 : seq)
        if services.shared != nil {
            sharedWrites = SharedWriteState(maxWaiting: services.limits.maxWaitingCommands)
        }
        if services.shared == nil {
            // On a shared log the events are stored before they are applied: nothing to collect.
            viewModel.recordedEvents.bind { [unowned self] events in
                collectedEvents.append(contentsOf: events)
            }.store(in: bindings)
        }
        presenter.latestPatch.bind { [unowned self] patch in
            guard let patch else { return }
            let encoded = FeedMessage(patch)
            window.append(encoded)
            feed.publish(encoded, context: self.context)
        }.store(in: bindings)
        if !isArchived {
            // An archived game is off the lobby (it takes no commands, so its line never changes).
            let report = services.reportSummary
            viewModel.summary.bindAndFire { summary in report(summary) }.store(in: bindings)
        }
        scheduleTick()
        bindCrewRoom()
    }

    /// The sequence number of the published document.
    var seq: Int { presenter.seq }

    /// The snapshot message, encoded once per `seq` however many subscribers join.
    func snapshot() -> FeedMessage {
        if let cachedSnapshot, cachedSnapshot.message.seq == presenter.seq { return cachedSnapshot }
        let snapshot = FeedMessage(presenter.snapshot())
        cachedSnapshot = snapshot
        return snapshot
    }

    // MARK: Subscribers

    /// Brings `subscriber` in without a gap: the patches after `since` when the window still has them (nothing when
    /// it is current), else a snapshot; then every later patch. On a shared log a `since` above this node's `seq`
    /// (seen on another node) first waits for this node to catch up to it (`AheadJoiners`).
    func join(_ subscriber: LoopBound<any JoiningSubscriber>, since: Int?, isEventStream: Bool) {
        if isEventStream { feed.reserveEventStream() }
        guard sharedWrites != nil else {
            bringIn(subscriber, since: since)
            return
        }
        changeAheadJoiners { $0.arrived(subscriber, since: since, current: seq) }
    }

    /// Runs the join on the subscriber's loop, in order with this loop's publishes (see `GameFeed`).
    func bringIn(_ subscriber: LoopBound<any JoiningSubscriber>, since: Int?) {
        let catchUp = since.flatMap { window.messages(after: $0, current: presenter.seq) } ?? [snapshot()]
        let feed = self.feed
        if subscriber.loop === context.loop {
            subscriber.value.join(catchUp: catchUp, feed: feed, context: context)
        } else {
            subscriber.loop.execute { context in subscriber.value.join(catchUp: catchUp, feed: feed, context: context) }
        }
    }

    // MARK: Commands

    /// Applies a scorer's command in arrival order and answers it once its effect is durable.
    func submit(_ request: CommandRequest) {
        if let refusal = refusalBeforeApplying(request) {
            release(refusal, for: request)
            return
        }
        if sharedWrites != nil {
            sharedArrived(.command(request))
            return
        }
        if !waitingCommands.isEmpty || writes.unconfirmed >= services.limits.maxUnconfirmedWrites {
            guard waitingCommands.count < services.limits.maxWaitingCommands else {
                release(
                    .refusal(
                        .unavailable, "too many commands are waiting for the disk; retry shortly", for: request),
                    for: request)
                return
            }
            waitingCommands.append(request)
            return
        }
        apply(request)
    }

    private func refusalBeforeApplying(_ request: CommandRequest) -> CommandReply? {
        if isArchived {
            return .refusal(.gameArchived, "game \(id) is archived and takes no more commands", for: request)
        }
        if isFailed {
            return .refusal(
                .unavailable, "game \(id) could not be saved; it takes no commands until its writes are stored",
                for: request)
        }
        return nil
    }

    private func apply(_ request: CommandRequest) {
        let before = presenter.seq
        collectedEvents = []
        var reply =
            switch request.decoded {
            case nil: administer(request, now: services.clock())
            case let decoded?: presenter.handle(decoded, by: request.issuer, now: services.clock())
            }
        if case .accepted(let commandID, _) = reply, let original = restoredAcks[commandID] {
            reply = .accepted(id: commandID, seq: original)
        }
        journalBatch(before: before)
        pendingReplies.append(PendingReply(afterWrites: writes.submitted, reply: reply, request: request))
        releaseReplies()
        scheduleTick()
    }

    /// Submits the journal write for the batch that took the document from `before` to now, if any.
    private func journalBatch(before: Int) {
        let after = presenter.seq
        let events = collectedEvents
        collectedEvents = []
        if !events.isEmpty {
            submit(.appendEvents(events.map { JournaledEvent($0, presentationSequence: after) }, toGame: id))
        } else if after > before {
            submit(.recordPresentationSequence(after, forGame: id))
        }
    }

    private func submit(_ write: JournalWrite) {
        writes.submitting(write)
        let owner = LoopBound(self, loop: context.loop)
        services.journal.submit(write) { result in
            owner.loop.execute { _ in owner.value.writeCompleted(result) }
        }
    }

    /// Journal completions arrive in submission order (one submitting thread per game).
    private func writeCompleted(_ result: Result<Void, JournalError>) {
        switch writes.completed(result) {
        case .none:
            break
        case .failed(let error):
            reportFailure(error)
        case .armRetry:
            armRetry()
        case .failedAndArmRetry(let error):
            reportFailure(error)
            armRetry()
        }
        releaseReplies()
        while !waitingCommands.isEmpty, writes.unconfirmed < services.limits.maxUnconfirmedWrites {
            let next = waitingCommands.removeFirst()
            if let refusal = refusalBeforeApplying(next) {
                release(refusal, for: next)
            } else {
                apply(next)
            }
        }
    }

    /// Releases, in command order, every reply whose writes are all durable. Once a write failed, a command whose
    /// writes include it (or come after it) is answered `unavailable`, never acked.
    private func releaseReplies() {
        var released = 0
        for pending in pendingReplies {
            if let failedAtWrite = writes.failedAtWrite, pending.afterWrites >= failedAtWrite {
                if case .accepted = pending.reply {
                    release(
                        .refusal(.unavailable, "game \(id) could not be saved", for: pending.request),
                        for: pending.request)
                } else {
                    release(pending.reply, for: pending.request)
                }
            } else if pending.afterWrites <= writes.confirmed {
                release(pending.reply, for: pending.request)
            } else {
                break
            }
            released += 1
        }
        pendingReplies.removeFirst(released)
    }

    func release(_ reply: CommandReply, for request: CommandRequest) {
        switch reply {
        case .accepted:
            let elapsed = ContinuousClock.now - request.receivedAt
            services.metrics.commandAccepted(
                latencySeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        case .rejected(_, let failure):
            services.metrics.commandRejected(code: failure.code.rawValue)
        }
        request.reply(reply)
    }

    // MARK: Time

    /// Arms a timer for the time-limit deadline while the clock runs.
    func scheduleTick() {
        let deadline = viewModel.game.isClockRunning ? viewModel.game.timeLimitDeadline : nil
        guard deadline != tickDeadline else { return }
        if let tickTimer { context.cancelTimer(tickTimer) }
        tickTimer = nil
        tickDeadline = deadline
        guard let deadline else { return }
        let delay = max(deadline.milliseconds(since: services.clock()), 0)
        tickTimer = context.scheduleTimer(after: .milliseconds(delay)) { [unowned self] _ in
            tickTimer = nil
            tickDeadline = nil
            tick(at: deadline)
        }
    }

    /// Lets the game reach its time limit. Ticking at the deadline itself (the timer fires at or after it) makes
    /// the stopped clock's `asOf` the limit event's own time, which a restart re-derives exactly.
    func tick(at deadline: Timestamp) {
        guard !isFailed, !isArchived else { return }
        if sharedWrites != nil {
            sharedArrived(.tick(deadline))
            return
        }
        let before = presenter.seq
        collectedEvents = []
        viewModel.tick(now: deadline)
        journalBatch(before: before)
        scheduleTick()
    }

    // MARK: Recovery (GameWriteLedger decides; this performs)

    private func reportFailure(_ error: JournalError) {
        services.logger.error(
            "journal write failed; the game takes no commands until the write is stored",
            ["game": id.rawValue, "error": "\(error)"])
        services.reportFailure(id, "\(error)")
    }

    /// Tries the failed writes again in `storageRetryInterval` (the disk may have room by then).
    private func armRetry() {
        guard retryTimer == nil else { return }
        retryTimer = context.scheduleTimer(after: services.limits.storageRetryInterval) { [unowned self] _ in
            retryTimer = nil
            if let write = writes.retryTimerFired() { resubmit(write) }
        }
    }

    private func resubmit(_ write: JournalWrite) {
        let owner = LoopBound(self, loop: context.loop)
        services.journal.submit(write) { result in
            owner.loop.execute { _ in owner.value.retryCompleted(result) }
        }
    }

    private func retryCompleted(_ result: Result<Void, JournalError>) {
        switch writes.retryCompleted(result) {
        case .submit(let next):
            resubmit(next)
        case .armRetry:
            if case .failure(let error) = result {
                services.logger.debug("journal write retry failed", ["game": id.rawValue, "error": "\(error)"])
            }
            armRetry()
        case .recovered:
            // Every published batch is stored: memory and disk agree again, the game takes commands.
            services.logger.notice(
                "journal writes stored after a failure; the game takes commands again", ["game": id.rawValue])
            services.reportRecovery(id)
            scheduleTick()
        case .stop:
            break  // the journal closed (shutdown): the next start reads the truth back from it
        }
    }

    /// Archives the game (issue 13 §6, `GameArchiver`): from now on it refuses commands and time, and the archive is
    /// journaled in order after every write before it. The caller takes it off the lobby.
    func archive(at instant: Timestamp) {
        guard !isArchived else { return }
        isArchived = true
        if let tickTimer { context.cancelTimer(tickTimer) }
        tickTimer = nil
        tickDeadline = nil
        submit(.archiveGame(id, at: instant))
    }

    /// Stops timers and observers (server shutdown).
    func stop() {
        if let tickTimer { context.cancelTimer(tickTimer) }
        tickTimer = nil
        if let retryTimer { context.cancelTimer(retryTimer) }
        retryTimer = nil
        if let aheadTimer { context.cancelTimer(aheadTimer) }
        aheadTimer = nil
        bindings.removeAll()
        crewRoom.stop(context)
        presenter.detach()
    }
}

@available(*, unavailable)
extension GameOwner: Sendable {}
