import CourtsideModel

/// The tutorial's scoreboard editor for one game, grown into what the server needs: it owns the model (`Game`),
/// applies commands to it with their client ids, lets time pass, and exposes everything a view shows as `Dynamic`s.
///
/// **Batches and revisions.** Each command (or tick) that changes anything a view shows is one *batch*: every
/// `Dynamic` takes its new value, then ``revision`` grows by exactly 1. A presenter that commits on `revision` turns
/// each batch into one message, numbered by the revision; a batch that changes nothing leaves `revision` alone.
///
/// **Time.** Nothing here reads a clock: commands and ticks take `now`; the tutorial's argumentless buttons use the
/// `clock` closure given at creation. ``time`` changes at most once a second while the clock runs (a page animates
/// the clock from ``clock``), and the owner calls ``tick(now:)`` at ``nextTickDeadline(after:)``.
///
/// Loop-confined: one game's view models live on one thread.
public final class GameScoreboardEditorViewModel {
    /// How many refused command ids are remembered so that a retry gets the same error. Accepted ids are remembered
    /// for the life of the game (the model keeps them too); refusals change nothing, so a bounded window (a retry
    /// comes within seconds) keeps a client sending bad commands from growing the memory without limit.
    public static let rememberedRefusalLimit = 256

    public let gameID: GameID
    public let homeTeam: String
    public let awayTeam: String
    public let rules: Rules
    /// One move editor per home player, in roster order (made, with every other `Dynamic` below but ``summary``,
    /// on the first read of any: ``ScoreboardDynamics``).
    public var homePlayers: [PlayerScoreboardMoveEditorViewModel] { dynamics.homePlayers }
    public var awayPlayers: [PlayerScoreboardMoveEditorViewModel] { dynamics.awayPlayers }

    /// Elapsed game time, `"mm:ss.d"`; whole seconds while the clock runs.
    public var time: Dynamic<String> { dynamics.time }
    /// `"3 - 2"` (home - away).
    public var score: Dynamic<String> { dynamics.score }
    public var homeScore: Dynamic<Int> { dynamics.homeScore }
    public var awayScore: Dynamic<Int> { dynamics.awayScore }
    public var isFinished: Dynamic<Bool> { dynamics.isFinished }
    /// Whether the game clock is stopped (a new game starts paused).
    public var isPaused: Dynamic<Bool> { dynamics.isPaused }
    /// The winning side once the game is finished.
    public var winner: Dynamic<TeamSide?> { dynamics.winner }
    /// The clock reading pages animate from.
    public var clock: Dynamic<ClockData> { dynamics.clock }
    /// Period, shot clock, team fouls, timeouts, possession, the lock and who is on court.
    public var status: Dynamic<GameStatus> { dynamics.status }
    /// Every player's statistics, the teams' totals and the points per period (minutes as of the clock's latest
    /// reading: see ``StatsData``).
    public var stats: Dynamic<StatsData> { dynamics.stats }
    /// The play-by-play, oldest first (row `i` is play `i + 1`).
    public private(set) var plays: [PlayRow]
    /// The rows the latest batch added or changed (every row at creation; a presenter starts from ``plays``): what a
    /// presenter writes, so a long
    /// game's play-by-play costs one write per play and command, not one per play already recorded.
    public var changedPlays: Dynamic<[PlayRow]> { dynamics.changedPlays }
    /// The plays the two scorers disagree on, not yet resolved (always empty without dual confirmation).
    public var conflicts: Dynamic<[Play]> { dynamics.conflicts }
    /// One line for the lobby (made at once: a server's owner reports every game's line).
    public var summary: Dynamic<GameSummary> { mutableSummary }
    /// The number of batches that changed something (see the type's documentation).
    public var revision: Dynamic<Int> { dynamics.revision }
    /// ``revision``'s value, read without making the `Dynamic`s.
    public private(set) var revisionNumber: Int
    /// The instant the latest batch is shown as of (a command's `now`, a tick's deadline, a stored batch's last
    /// event): what a patch's server time should be, so nodes that apply the same stored batch agree on it.
    public private(set) var batchInstant: Timestamp
    /// Everything the views show, as one value (what the `Dynamic`s hold).
    public private(set) var frame: GameFrame

    /// The model, read-only: the view model alone changes it.
    public private(set) var game: Game

    private let mutableSummary: MutableDynamic<GameSummary>
    /// The views' `Dynamic`s, once any was read (``ScoreboardDynamics``).
    private var madeDynamics: ScoreboardDynamics?
    private let now: () -> Timestamp
    /// The revision after each accepted command, so that a repeated id is answered with the same `seq`.
    private var acceptedRevisions: [CommandID: Int] = [:]
    private var refusals: [CommandID: (command: GameCommand, member: CrewMemberID?, reply: CommandReply)] = [:]
    private var refusalOrder: [CommandID] = []
    private var localCommandNumber = 0
    /// The rows the latest batch added or changed (``changedPlays``'s value, for the batch's value).
    private(set) var latestPlayChanges: [PlayRow]

    /// A view model owning `game`, showing it as of `now`; `clock` dates the tutorial's argumentless buttons, and
    /// `revision` continues a numbering (0 for a new document) in which `acceptedRevisions` answered the commands
    /// accepted before (from a journal: they date the plays).
    public init(
        game: Game, now: Timestamp, clock: @escaping () -> Timestamp, revision: Int = 0,
        acceptedRevisions: [CommandID: Int] = [:]
    ) {
        self.game = game
        self.gameID = game.id
        self.homeTeam = game.homeTeam.name
        self.awayTeam = game.awayTeam.name
        self.rules = game.rules
        self.now = clock
        self.batchInstant = now
        let frame = GameFrame(game: game, now: now, previousClock: nil)
        self.frame = frame
        self.acceptedRevisions = acceptedRevisions
        self.plays = Self.playRows(of: game, seqs: acceptedRevisions, nextSeq: nil)
        self.latestPlayChanges = plays
        self.mutableSummary = MutableDynamic(GameSummary(game: game))
        self.revisionNumber = revision
    }

    /// The views' `Dynamic`s, made on the first read.
    private var dynamics: ScoreboardDynamics {
        if let madeDynamics { return madeDynamics }
        let made = ScoreboardDynamics(of: self)
        madeDynamics = made
        return made
    }

    // MARK: The tutorial's buttons and the server's commands

    /// Starts the clock when paused, pauses it when running (the tutorial's start/pause button).
    public func togglePause() {
        if frame.isPaused { start() } else { pause() }
    }

    /// Starts the game clock now.
    @discardableResult
    public func start() -> CommandReply { handle(.startClock(id: nextLocalCommandID())) }

    /// Pauses the game clock now.
    @discardableResult
    public func pause() -> CommandReply { handle(.pauseClock(id: nextLocalCommandID())) }

    /// Reverts the most recent move not yet undone.
    @discardableResult
    public func undo() -> CommandReply { handle(.undo(id: nextLocalCommandID())) }

    func makeMove(_ move: PlayerMove, for player: PlayerID) -> CommandReply {
        handle(.move(player, move, id: nextLocalCommandID()))
    }

    /// Applies `command` at the `clock` given at creation.
    @discardableResult
    public func handle(_ command: GameCommand) -> CommandReply {
        handle(command, now: now())
    }

    /// Applies a client's command at `now` and answers it: accepted with the revision that shows its effect, or
    /// refused with a typed failure (nothing changes). A command id seen before gets the same answer again and
    /// changes nothing, including the same `seq`.
    /// `member` is the table-crew member who sent it (nil: the game's scorer token).
    @discardableResult
    public func handle(_ command: GameCommand, by member: CrewMemberID? = nil, now: Timestamp) -> CommandReply {
        // `apply` answers every command (a reply is nil only for ticks and stored batches).
        guard let reply = apply(command, by: member, now: now).reply else {
            preconditionFailure("Invalid state: a command without an answer")
        }
        return reply
    }

    /// ``handle(_:now:)`` returning its whole effect as a value: the reply and the events the batch appended to the
    /// game's log (for the owner to journal), so no effect travels through an observer.
    public func apply(_ command: GameCommand, by member: CrewMemberID? = nil, now: Timestamp) -> ScoreboardBatch {
        switch propose(command, by: member, now: now) {
        case .repeated(let reply):
            return unchanged(reply: reply)
        case .append(let events, let next):
            game = next
            publishBatch(events: events, now: now)
            acceptedRevisions[command.id] = revisionNumber
            return batch(events: events, reply: .accepted(id: command.id, seq: revisionNumber))
        case .refused(let reply):
            // The model leaves a time limit that a refused command passed for the owner to record.
            return tick(now: now).answering(reply)
        }
    }

    /// What `command` would do at `now`, computed on a copy of the game and shown nowhere: the events to store (with
    /// the game they make), the answer an id got before (accepted, even before this view model existed, or refused:
    /// a retry gets the same answer, whichever journal the game has), or a new refusal, remembered here for the
    /// retries. A shared log stores the events before any node shows them (docs/redis.md, "Applying stored
    /// batches"), so its owner proposes first and applies the stored batch with ``applyStored(_:revision:)``.
    /// `member` is the table-crew member who sent it (nil: the game's scorer token); a refusal is remembered with
    /// its sender, so the same command from another member is decided again (its role may take it).
    public func propose(_ command: GameCommand, by member: CrewMemberID? = nil, now: Timestamp) -> CommandProposal {
        if let refusal = refusals[command.id], refusal.command == command, refusal.member == member {
            return .repeated(refusal.reply)
        }
        var next = game
        do {
            let outcome = try next.apply(command, by: member, at: now)
            if outcome.isDuplicate {
                return .repeated(.accepted(id: command.id, seq: acceptedRevision(of: command.id) ?? revisionNumber))
            }
            return .append(outcome.newEvents, next)
        } catch {
            let reply = CommandReply.rejected(id: command.id, failure: CommandFailure(error))
            if case .commandIDReused = error {
                // Not remembered: the id belongs to the command the game accepted.
            } else {
                remember(reply, for: command, by: member)
            }
            return .refused(reply)
        }
    }

    /// The events a tick at `now` would store (the time limit reached, windows to confirm that closed) and the game
    /// they make, computed on a copy; nil when none is due.
    public func proposedTick(at now: Timestamp) -> (events: [GameEvent], game: Game)? {
        var next = game
        let events = next.catchUp(to: now)
        return events.isEmpty ? nil : (events, next)
    }

    /// Reopens a game a scorer confirmed final (an administrator's decision) at `now`; one batch, like a command.
    @discardableResult
    public func reopen(now: Timestamp) throws(GameError) -> ScoreboardBatch {
        let reopen = { (game: inout Game) throws(GameError) in
            let event = try game.reopen(at: now)
            return CommandOutcome(event: event, newEvents: [event])
        }
        return try record(now: now, acknowledging: { _ in "#reopen" }, reopen)
    }

    /// What a change that is not a command (a table-crew member added or revoked, a reopen) would record at `now`,
    /// computed on a copy of the game and shown nowhere (a shared log stores it before any node shows it).
    public func proposedChange(
        _ change: (inout Game) throws(GameError) -> CommandOutcome
    ) throws(GameError) -> (outcome: CommandOutcome, game: Game) {
        var next = game
        let outcome = try change(&next)
        return (outcome, next)
    }

    /// Records a change that is not a command as one batch: `change` performs it on the game and returns what it
    /// recorded, or throws and changes nothing; the ack's id is `acknowledging` the change's own event.
    @discardableResult
    public func record(
        now: Timestamp, acknowledging replyID: (GameEvent) -> CommandID,
        _ change: (inout Game) throws(GameError) -> CommandOutcome
    ) throws(GameError) -> ScoreboardBatch {
        var next = game
        let outcome = try change(&next)
        game = next
        publishBatch(events: outcome.newEvents, now: now)
        return batch(
            events: outcome.newEvents, reply: .accepted(id: replyID(outcome.event), seq: revisionNumber))
    }

    /// Applies a batch of events already stored in a shared log (this node's command once its append returned, or
    /// another node's, read from the feed) as one batch numbered `revision`, the presentation sequence stored with
    /// them. The batch is shown as of its last event's instant, so every node that applies the same stored batch
    /// makes the same document and the same patch bytes (docs/redis.md, "Applying stored events"). Events at or
    /// below the game's last one are skipped (a batch seen twice changes nothing); a gap or an event the game
    /// refuses throws and changes nothing.
    @discardableResult
    public func applyStored(_ events: [GameEvent], revision: Int) throws(GameReplayError) -> ScoreboardBatch {
        let fresh = events.filter { $0.sequence > game.events.count }
        guard !fresh.isEmpty else { return unchanged(reply: nil) }
        var next = game
        for event in fresh { try next.replay(event) }
        return show(stored: fresh, making: next, revision: revision)
    }

    /// Shows this node's own proposal (``propose(_:by:now:)``, ``proposedTick(at:)``, ``proposedChange(_:)``) once
    /// the shared log stored its `events` as `revision`: `proposed`, the game the proposal made, is taken as is, so
    /// the events are applied once (when proposed), not replayed; the batch is shown exactly as
    /// ``applyStored(_:revision:)`` shows it on every other node (as of its last event's instant, numbered by the
    /// stored revision), so every node sends the same bytes. When the game no longer stands where the proposal
    /// started (the feed brought the stored batch first), the events are applied as stored instead: skipped when
    /// held already.
    @discardableResult
    public func applyProposed(
        _ proposed: Game, events: [GameEvent], revision: Int
    ) throws(GameReplayError) -> ScoreboardBatch {
        guard !events.isEmpty, game.events.count == proposed.events.count - events.count,
            proposed.events.last?.sequence == events.last?.sequence
        else { return try applyStored(events, revision: revision) }
        return show(stored: events, making: proposed, revision: revision)
    }

    /// Takes `next`, the game after the stored `events`, and shows them as one batch numbered `revision`.
    private func show(stored events: [GameEvent], making next: Game, revision: Int) -> ScoreboardBatch {
        game = next
        for event in events {
            if let commandID = event.commandID { acceptedRevisions[commandID] = revision }
        }
        publishBatch(events: events, now: events[events.count - 1].at, revision: revision)
        return batch(events: events, reply: nil)
    }

    /// The `seq` that acknowledged an accepted command id, nil when the id is not accepted.
    public func acceptedRevision(of id: CommandID) -> Int? {
        guard game.event(forCommand: id) != nil else { return nil }
        return acceptedRevisions[id] ?? revisionNumber
    }

    /// Lets time pass up to `now`: records the time limit when the clock reached it and the windows to confirm that
    /// closed, and refreshes ``time``.
    @discardableResult
    public func tick(now: Timestamp) -> ScoreboardBatch {
        let events = game.catchUp(to: now)
        publishBatch(events: events, now: now)
        return batch(events: events, reply: nil)
    }

    /// When the owner should call ``tick(now:)`` next: when ``time`` shows the next second or the time limit is
    /// reached, whichever is first; nil while the clock is stopped.
    public func nextTickDeadline(after now: Timestamp) -> Timestamp? {
        guard game.isClockRunning else { return nil }
        let nextSecond = (game.clock.elapsedMs(at: now) / 1000 + 1) * 1000
        let secondDeadline = game.clock.instant(whenElapsedIs: nextSecond)
        return [secondDeadline, game.timeLimitDeadline].compactMap { $0 }.min()
    }

    // MARK: Private

    private func nextLocalCommandID() -> CommandID {
        // "#" is outside the wire's id alphabet (see CommandDecoder), so these never collide with a client's ids.
        localCommandNumber += 1
        return CommandID("#local-\(localCommandNumber)")
    }

    private func remember(_ reply: CommandReply, for command: GameCommand, by member: CrewMemberID?) {
        if refusals.updateValue((command, member, reply), forKey: command.id) == nil {
            refusalOrder.append(command.id)
        }
        if refusalOrder.count > Self.rememberedRefusalLimit {
            refusals[refusalOrder.removeFirst()] = nil
        }
    }

    /// The batch just published, as a value.
    private func batch(events: [GameEvent], reply: CommandReply?) -> ScoreboardBatch {
        ScoreboardBatch(
            events: events, reply: reply, frame: frame, changedPlays: latestPlayChanges,
            revision: revisionNumber, instant: batchInstant)
    }

    /// A batch that changed nothing (a repeated id, a stored batch seen before): the revision stays, so no
    /// presenter publishes it.
    private func unchanged(reply: CommandReply?) -> ScoreboardBatch {
        ScoreboardBatch(
            events: [], reply: reply, frame: frame, changedPlays: [], revision: revisionNumber,
            instant: batchInstant)
    }

    /// Computes the frame and updates every `Dynamic` from it; when any changed, closes the batch by growing the
    /// revision.
    private func publishBatch(events: [GameEvent], now: Timestamp, revision: Int? = nil) {
        batchInstant = now
        let previous = frame
        frame = GameFrame(game: game, now: now, previousClock: frame.clock)
        // What the views show changed when the frame did (each `Dynamic` holds one of its members, a player's
        // labels are its move counts, and a game's conflicts are nil throughout or never), or a play row, or the
        // lobby's line.
        var changed = frame != previous
        changed = refreshPlays(after: events) || changed
        madeDynamics?.show(frame, changedPlays: latestPlayChanges)
        changed = mutableSummary.update(GameSummary(game: game)) || changed
        if let revision {
            // A stored batch keeps its stored number even when it changes nothing shown (a repeated reading).
            if revision > revisionNumber { revisionNumber = revision }
        } else if changed {
            revisionNumber += 1
        }
        madeDynamics?.finish(conflicts: frame.conflicts ?? [], revision: revisionNumber)
    }

    /// Whole seconds while running (so the label changes once a second), tenths when stopped, as the tutorial.
    static func timeLabel(of game: Game, now: Timestamp) -> String {
        let elapsed = game.elapsedMs(at: now)
        return TimeFormatting.label(elapsedMs: game.isClockRunning ? elapsed / 1000 * 1000 : elapsed)
    }

    /// A running clock is read at the instant it started, a stopped one at the instant it stopped (the model's, not
    /// the batch's: a basket that wins the game or a command that passes the time limit stops it at the event's
    /// own instant), so the reading changes only when the clock does and a game rebuilt from its events shows the
    /// same bytes (a correction or a new period sets that instant too). A clock that never ran keeps its first
    /// reading (the game's creation).
    static func clockData(of game: Game, now: Timestamp, previous: ClockData?) -> ClockData {
        let clock = game.clock
        let length = game.periodLengthMs
        if let runningSince = clock.runningSince {
            return ClockData(running: true, elapsedMs: clock.accumulatedMs, asOf: runningSince, periodLengthMs: length)
        }
        let asOf = clock.stoppedAt ?? previous?.asOf ?? now
        return ClockData(running: false, elapsedMs: clock.accumulatedMs, asOf: asOf, periodLengthMs: length)
    }

    /// Updates the play rows the batch's events touched (a move adds one; an undo, edit or deletion changes one), so
    /// a long game costs no rebuild of its whole play-by-play per command. Returns whether any changed.
    private func refreshPlays(after events: [GameEvent]) -> Bool {
        var touched: [Int] = []
        if game.rules.dualConfirmation != nil {
            // A scorer's entry may add a play or confirm, or conflict with, an earlier one: compare the rows (a
            // value comparison per play, far cheaper than writing them) and take the new plays.
            touched = plays.indices.filter { plays[$0].play != game.plays[$0] } + Array(plays.count..<game.plays.count)
        }
        for event in events where game.rules.dualConfirmation == nil {
            switch event.kind {
            case .move: touched.append(plays.count + touched.filter { $0 >= plays.count }.count)
            case .editPlay(let play, _, _), .deletePlay(let play): touched.append(play - 1)
            case .undo(let undoes):
                if let index = game.plays.lastIndex(where: { $0.sequence == undoes }) { touched.append(index) }
            default: break
            }
        }
        let isTimed = game.rules.isTimed
        var changed: [PlayRow] = []
        for index in touched {
            let play = game.plays[index]
            // A play recorded in this batch is first shown by the revision this batch makes.
            let row = PlayRow(
                play: play, seq: acceptedRevisions[play.commandID] ?? revisionNumber + 1,
                period: isTimed ? play.period : nil)
            if index < plays.count { plays[index] = row } else { plays.append(row) }
            changed.append(row)
        }
        latestPlayChanges = changed
        return !changed.isEmpty
    }

    /// The play-by-play: each play dated by the revision that answered its command (`nextSeq` for the batch being
    /// made).
    static func playRows(of game: Game, seqs: [CommandID: Int], nextSeq: Int?) -> [PlayRow] {
        game.plays.map { play in
            PlayRow(
                play: play, seq: seqs[play.commandID] ?? nextSeq, period: game.rules.isTimed ? play.period : nil)
        }
    }
}

@available(*, unavailable)
extension GameScoreboardEditorViewModel: Sendable {}
