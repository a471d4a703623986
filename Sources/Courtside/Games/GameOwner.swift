import CourtsideBytes
import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The one authoritative owner of a game: its view model and presenter, its feed, its resume window and its journal
/// writes, all on one loop. It decides nothing itself: `GameOwnerStateMachine` decides (both journals, one answer to
/// each situation: docs/journal.md, "One owner, two journals"), and this shell performs the machine's actions:
/// apply to the view model, publish, journal, read the shared log, answer, arm and cancel timers.
///
/// Time passes only at the model's next deadline (not every second): `time` is refreshed by every patch anyway and
/// pages animate from `clock`, and this keeps every published number tied to a journal write.
///
/// Loop-confined (on its scheduler's loop).
final class GameOwner {
    let id: GameID
    let scheduler: any LoopScheduler
    /// The loop's context, for joining subscribers and publishing to the feed (nil in the owner's own tests, which
    /// give `publish` instead).
    let context: LoopContext?
    let viewModel: GameScoreboardEditorViewModel
    let presenter: GamePresenter
    let feed: GameFeed
    let scorerTokenSHA256: [UInt8]
    let services: GameServices
    /// Archived at start or by `archive()`: readable, takes no more commands.
    var isArchived: Bool { machine.isArchived }
    /// Whether a journal write failed and is not yet stored again (a local journal).
    var isFailed: Bool { machine.isFailed }
    private(set) var machine: GameOwnerStateMachine
    /// Stored batches of other nodes applied from the log, and this node's own stored batches shown from their
    /// proposals: each batch is applied once, counted here for the owner's traces.
    private(set) var storedBatchesApplied = 0
    private(set) var proposalsShown = 0
    private var window: PatchWindow
    private let bindings = DynamicBindingBag()
    private let publishToFeed: (EncodedMessage) -> Void
    private var timers: [GameOwnerTimer: TimerID] = [:]
    /// Actions not yet performed, the next last (a report's actions go on top: depth first, without recursion).
    private var pending: [GameOwnerAction] = []
    private var isPerforming = false
    /// Joiners resuming from a `seq` this node has not reached yet (a shared log only).
    var aheadJoiners: AheadJoiners<LoopBound<any JoiningSubscriber>>
    /// The warning that a resume got an older snapshot, at most once a minute for this game: any anonymous
    /// spectator can cause it with `since=` far ahead.
    var behindResumeLog = LogSampler(interval: .seconds(60))
    var aheadTimer: TimerID?
    /// The scorer sockets of the game and the crew presence they are sent (`GameOwner+Crew`).
    let crewRoom = CrewRoom()

    /// An owner for `game` numbered from `seq`, showing the game as of `now`, on the loop of `context`; `restored`
    /// when rebuilt from the journal (its document at `seq` is then re-derived, so resumes from `seq` get a
    /// snapshot); `restoredAcks`: the `seq` of every command accepted before the restart.
    convenience init(
        game: Game, seq: Int, now: Timestamp, restored: Bool, restoredAcks: [CommandID: Int] = [:],
        scorerTokenSHA256: [UInt8], isArchived: Bool, relayedFrom: String? = nil, services: GameServices,
        context: LoopContext
    ) {
        self.init(
            game: game, seq: seq, now: now, restored: restored, restoredAcks: restoredAcks,
            scorerTokenSHA256: scorerTokenSHA256, isArchived: isArchived, relayedFrom: relayedFrom,
            services: services, scheduler: EventLoopScheduler(context: context), context: context, publish: nil)
    }

    /// The same on any scheduler; `publish` (when given) receives each patch instead of the feed; `relayedFrom`
    /// names the venue of a relayed game (the machine's relayed mode: docs/relay.md).
    init(
        game: Game, seq: Int, now: Timestamp, restored: Bool, restoredAcks: [CommandID: Int],
        scorerTokenSHA256: [UInt8], isArchived: Bool, relayedFrom: String? = nil, services: GameServices,
        scheduler: any LoopScheduler, context: LoopContext?, publish: ((EncodedMessage) -> Void)?
    ) {
        self.id = game.id
        self.scheduler = scheduler
        self.context = context
        self.services = services
        self.aheadJoiners = AheadJoiners(maxAhead: services.limits.resumeWindow)
        self.scorerTokenSHA256 = scorerTokenSHA256
        viewModel = GameScoreboardEditorViewModel(
            game: game, now: now, clock: services.clock, revision: seq, acceptedRevisions: restoredAcks)
        presenter = GamePresenter(viewModel: viewModel)
        let feed = GameFeed(group: services.group, metrics: services.metrics)
        self.feed = feed
        if let publish {
            publishToFeed = publish
        } else if let context {
            publishToFeed = { feed.publish($0, context: context) }
        } else {
            preconditionFailure("Invalid state: an owner with neither a loop context nor a publish closure")
        }
        // On a shared log every document this node shows is derived from stored batches, so a restored game's
        // document is the one every node published at `seq`, and resumes from it are exact.
        let exact = services.shared != nil || relayedFrom != nil
        window = PatchWindow(
            capacity: services.limits.resumeWindow, firstOwnSeq: restored && !exact ? seq + 1 : seq)
        machine = GameOwnerStateMachine(
            gameID: game.id,
            mode: relayedFrom.map { .relayed(venue: $0) } ?? (services.shared == nil ? .local : .shared),
            view: GameOwnerView(seq: seq, heldEvents: game.events.count, nextDeadline: game.nextDeadline),
            isArchived: isArchived, restoredAcks: restoredAcks, limits: services.limits)
        if !isArchived {
            // An archived game is off the lobby (it takes no commands, so its line never changes).
            let report = services.reportSummary
            viewModel.summary.bindAndFire { summary in report(summary) }.store(in: bindings)
        }
        perform(machine.started())
    }

    /// The sequence number of the published document.
    var seq: Int { presenter.seq }

    /// The snapshot message, encoded once per `seq` however many subscribers join (the presenter keeps it).
    func snapshot() -> EncodedMessage { presenter.snapshot() }

    /// Sends a message outside the numbered document (a relayed game's link state) to the game's spectators; on an
    /// owner without a loop (published through a closure) only its WebSocket channel has subscribers.
    func publishUnnumbered(_ text: String, event: String) {
        guard let context else {
            feed.channel.publish(text: text)
            return
        }
        feed.publishUnnumbered(text, event: event, context: context)
    }

    // MARK: Events in

    /// A scorer's command (or an administrative change: a reopen, a crew member added or revoked), answered once
    /// its effect is durable.
    func submit(_ request: CommandRequest) {
        perform(machine.arrived(request))
    }

    /// Another node's stored batches of this game from the shared feed, in order (each batch whole).
    func receiveStored(_ events: [JournaledEvent]) {
        perform(machine.remoteBatch(events))
    }

    /// Archives the game: from now on it refuses commands and time; the archive is journaled in order after every
    /// write before it. The caller takes it off the lobby.
    func archive(at instant: Timestamp) {
        perform(machine.archive(at: instant))
    }

    /// Behind the shared log (a joiner ahead of this node): catch up.
    func catchUpNow() {
        perform(machine.gapSeen())
    }

    /// Stops timers and observers (server shutdown).
    func stop() {
        for timer in timers.values { scheduler.cancel(timer) }
        timers = [:]
        if let aheadTimer { scheduler.cancel(aheadTimer) }
        aheadTimer = nil
        bindings.removeAll()
        crewRoom.stop(scheduler)
    }

    // MARK: Actions out

    private func perform(_ actions: [GameOwnerAction]) {
        pending.append(contentsOf: actions.reversed())
        guard !isPerforming else { return }
        isPerforming = true
        while let action = pending.popLast() { perform(action) }
        isPerforming = false
    }

    private func perform(_ action: GameOwnerAction) {
        switch action {
        case .show(let work):
            let effects = show(work)
            crewEventsShown(effects.events)
            perform(machine.shown(work, effects, view: view))
        case .propose(let work):
            perform(machine.proposed(propose(work)))
        case .showStored(let batch):
            guard !machine.hasDiverged else { return }
            do {
                let effects = try presenter.applyStored(batch.map(\.event), revision: batch[0].presentationSequence)
                storedBatchesApplied += 1
                crewEventsShown(effects.events)
                perform(machine.storedShown(effects, view: view))
            } catch {
                perform(machine.storedRefused(error))
            }
        case .showProposed(let batch, let proposed):
            guard !machine.hasDiverged else { return }
            do {
                let effects = try presenter.applyProposed(
                    proposed, events: batch.map(\.event), revision: batch[0].presentationSequence)
                proposalsShown += 1
                crewEventsShown(effects.events)
                perform(machine.storedShown(effects, view: view))
            } catch {
                perform(machine.storedRefused(error))
            }
        case .publish(let patch):
            window.append(patch)
            publishToFeed(patch)
        case .journal(let write):
            submitToJournal(write) { owner, result in owner.perform(owner.machine.journalCompleted(result)) }
        case .journalAgain(let write):
            submitToJournal(write) { owner, result in owner.perform(owner.machine.retryCompleted(result)) }
        case .catchUp:
            catchUp()
        case .answer(let request, let reply):
            answer(request, reply)
        case .armTick(let deadline):
            let delay = max(deadline.milliseconds(since: services.clock()), 0)
            arm(.tick, after: .milliseconds(delay))
        case .arm(let timer, let delay):
            arm(timer, after: delay)
        case .cancel(let timer):
            if let armed = timers.removeValue(forKey: timer) { scheduler.cancel(armed) }
        case .serveAheadJoiners:
            if !aheadJoiners.waiting.isEmpty { changeAheadJoiners { $0.advanced(to: seq) } }
        case .reportFailure(let reason):
            services.logger.error(
                "journal write failed; the game takes no commands until the write is stored",
                ["game": id.rawValue, "error": reason])
            services.reportFailure(id, reason)
        case .reportRecovery:
            services.logger.notice(
                "journal writes stored after a failure; the game takes commands again", ["game": id.rawValue])
            services.reportRecovery(id)
        case .warn(let message, let error):
            services.logger.warning(message, ["game": id.rawValue, "error": "\(error)"])
        }
    }

    private var view: GameOwnerView {
        GameOwnerView(
            seq: presenter.seq, heldEvents: viewModel.game.events.count, nextDeadline: viewModel.game.nextDeadline)
    }

    /// Applies the work to the view model now (a local journal), at the wall clock (a tick: at its deadline, so the
    /// stopped clock's `asOf` is the limit event's own time, which a restart re-derives exactly).
    private func show(_ work: GameOwnerWork) -> GameEffects {
        switch work {
        case .tick(let deadline):
            return presenter.applyTick(now: deadline)
        case .command(let request):
            let now = services.clock()
            if let administration = request.administration {
                return presenter.applyChange(now: now, acknowledging: administration.replyID(for:)) {
                    (game: inout Game) throws(GameError) in try administration.perform(on: &game, now: now)
                }
            }
            guard let decoded = request.decoded else {
                preconditionFailure("Invalid state: neither command nor change")
            }
            return presenter.apply(decoded, by: request.issuer, now: now)
        case .archive:
            preconditionFailure("Invalid state: an archive is journaled, never shown")
        }
    }

    /// The work's events computed on a copy of the game (a shared log stores them before anyone shows them).
    private func propose(_ work: GameOwnerWork) -> GameOwnerProposal {
        switch work {
        case .tick(let deadline):
            return viewModel.proposedTick(at: deadline).map {
                .append($0.events, acknowledging: nil, making: $0.game)
            } ?? .nothing
        case .command(let request):
            let now = services.clock()
            if let administration = request.administration {
                do {
                    let (outcome, game) = try viewModel.proposedChange { (game: inout Game) throws(GameError) in
                        try administration.perform(on: &game, now: now)
                    }
                    return .append(
                        outcome.newEvents, acknowledging: administration.replyID(for: outcome.event), making: game)
                } catch {
                    return .answer(.rejected(id: nil, failure: CommandFailure(error)))
                }
            }
            switch request.decoded {
            case nil:
                preconditionFailure("Invalid state: neither command nor change")
            case .failure(let rejection)?:
                return .answer(rejection.reply)
            case .success(let command)?:
                switch viewModel.propose(command, by: request.issuer, now: now) {
                case .append(let events, let game): return .append(events, acknowledging: command.id, making: game)
                case .repeated(let reply), .refused(let reply): return .answer(reply)
                }
            }
        case .archive:
            preconditionFailure("Invalid state: an archive is journaled, never proposed")
        }
    }

    private func submitToJournal(
        _ write: JournalWrite, then completed: @escaping (GameOwner, Result<Void, JournalError>) -> Void
    ) {
        let owner = OnScheduler(self, completed)
        let scheduler = self.scheduler
        services.journal.submit(write) { result in
            scheduler.execute { owner.run(result) }
        }
    }

    /// Reads the shared log after what the game holds.
    private func catchUp() {
        guard let shared = services.shared else { return }
        let owner = OnScheduler<[JournaledEvent]>(self) { owner, result in
            if case .success = result { owner.services.metrics.sharedCatchUp() }
            owner.perform(owner.machine.caughtUp(result))
        }
        let scheduler = self.scheduler
        shared.events(ofGame: id, after: viewModel.game.events.count) { result in
            scheduler.execute { owner.run(result) }
        }
    }

    private func arm(_ timer: GameOwnerTimer, after delay: Duration) {
        if let armed = timers[timer] { scheduler.cancel(armed) }
        timers[timer] = scheduler.schedule(after: delay) { [unowned self] in
            timers[timer] = nil
            perform(machine.timerFired(timer))
        }
    }

    func answer(_ request: CommandRequest, _ reply: CommandReply) {
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

    // MARK: Subscribers

    /// Brings `subscriber` in without a gap: the patches after `since` when the window still has them (nothing when
    /// it is current), else a snapshot; then every later patch. On a shared log a `since` above this node's `seq`
    /// (seen on another node) first waits for this node to catch up to it (`AheadJoiners`).
    func join(_ subscriber: LoopBound<any JoiningSubscriber>, since: Int?, isEventStream: Bool) {
        if isEventStream { feed.reserveEventStream() }
        guard machine.mode == .shared else {
            bringIn(subscriber, since: since)
            return
        }
        changeAheadJoiners { $0.arrived(subscriber, since: since, current: seq) }
    }

    /// Runs the join on the subscriber's loop, in order with this loop's publishes (see `GameFeed`).
    func bringIn(_ subscriber: LoopBound<any JoiningSubscriber>, since: Int?) {
        guard let context else { preconditionFailure("Invalid state: a join on an owner without a loop") }
        let catchUp = since.flatMap { window.messages(after: $0, current: presenter.seq) } ?? [snapshot()]
        let feed = self.feed
        if subscriber.loop === context.loop {
            subscriber.value.join(catchUp: catchUp, feed: feed, context: context)
        } else {
            subscriber.loop.execute { context in subscriber.value.join(catchUp: catchUp, feed: feed, context: context) }
        }
    }
}

/// The owner carried through a journal's thread to its scheduler: used only inside `LoopScheduler.execute`, on the
/// owner's loop (`@unchecked Sendable` is that confinement, as `LoopBound`'s).
private struct OnScheduler<Value>: @unchecked Sendable {
    let owner: GameOwner
    let body: (GameOwner, Result<Value, JournalError>) -> Void

    init(_ owner: GameOwner, _ body: @escaping (GameOwner, Result<Value, JournalError>) -> Void) {
        self.owner = owner
        self.body = body
    }

    func run(_ result: Result<Value, JournalError>) {
        body(owner, result)
    }
}

@available(*, unavailable)
extension GameOwner: Sendable {}
