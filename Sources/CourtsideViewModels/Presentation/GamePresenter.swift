import CourtsideModel

/// Keeps one game's presentation document (STATE in docs/protocol.md) up to date from its view models and turns
/// each batch of changes into one patch message.
///
/// Every field of the document is written by an observer of one `Dynamic`; the same observers fill the initial
/// document (via `bindAndFire`), so a snapshot and the patches cannot disagree about a field. The observers only
/// edit the live document; the presenter commits when the view model's `revision` grows, which the view model does
/// once per batch after all its `Dynamic`s have their new values: so one command is one message, whose `seq` is
/// the revision.
///
/// Loop-confined, like its view model.
public final class GamePresenter {
    public let viewModel: GameScoreboardEditorViewModel
    /// The latest patch message (nil until the first); bind to it to broadcast each one. Observers must not apply
    /// commands from inside the observer (queue them instead), or later observers would see the patches out of order.
    public var latestPatch: Dynamic<PresentationMessage?> { mutableLatestPatch }

    private let publisher: DocumentPublisher
    private let mutableLatestPatch = MutableDynamic<PresentationMessage?>(nil)
    private let bindings = DynamicBindingBag()
    private let commandDecoder: CommandDecoder

    /// A presenter of `viewModel`. Each patch is dated (`"at"`, server Unix milliseconds) by the instant the view
    /// model shows its batch as of (`batchInstant`: a command's arrival, a tick's deadline, a stored batch's last
    /// event), never by a clock of its own: so every node that applies one stored batch dates its patch alike and
    /// sends the same bytes, and a test sets the date through the `now` it applies commands at.
    public init(viewModel: GameScoreboardEditorViewModel, commandDecoder: CommandDecoder = CommandDecoder()) {
        self.viewModel = viewModel
        self.commandDecoder = commandDecoder
        self.publisher = DocumentPublisher(
            stream: .game(id: viewModel.gameID.rawValue), document: GameDocument.skeleton(of: viewModel),
            seq: viewModel.revision.value)
        bindFields()
        publisher.adoptLiveDocument()
        viewModel.revision.bind { [unowned self] revision in
            mutableLatestPatch.value = publisher.commit(seq: revision, at: self.viewModel.batchInstant)
        }.store(in: bindings)
    }

    /// The sequence number of the published document.
    public var seq: Int { publisher.seq }

    /// The document as of ``seq``.
    public var document: JSONValue { publisher.published }

    /// A snapshot message of the published document, encoded once per `seq`.
    public func snapshot() -> PresentationMessage {
        publisher.snapshot()
    }

    /// Decodes a scorer's command and applies it at `now`; the reply goes back to the scorer, and the patch (if the
    /// command changed anything) reaches ``latestPatch`` before this returns.
    @discardableResult
    public func handle(commandBytes bytes: some Collection<UInt8>, now: Timestamp) -> CommandReply {
        handle(commandDecoder.decode(bytes), now: now)
    }

    /// Applies a command decoded already (by the server, once, on arrival) at `now`, or answers why it is not one;
    /// the same as ``handle(commandBytes:now:)`` without parsing again.
    @discardableResult
    public func handle(
        _ decoded: Result<GameCommand, CommandRejection>, by member: CrewMemberID? = nil, now: Timestamp
    ) -> CommandReply {
        switch decoded {
        case .success(let command): viewModel.handle(command, by: member, now: now)
        case .failure(let rejection): rejection.reply
        }
    }

    /// Applies a command decoded on arrival (or answers why it is not one) at `now`, returning every effect as a
    /// value: the events to journal, the reply, and the patch when anything shown changed.
    /// `member` is the table-crew member who sent it (nil: the game's scorer token).
    public func apply(
        _ decoded: Result<GameCommand, CommandRejection>, by member: CrewMemberID? = nil, now: Timestamp
    ) -> GameEffects {
        let before = seq
        switch decoded {
        case .success(let command):
            let batch = viewModel.apply(command, by: member, now: now)
            return effects(of: batch, since: before)
        case .failure(let rejection):
            return GameEffects(events: [], reply: rejection.reply, patch: nil)
        }
    }

    /// Records a change that is not a command (a table-crew member added or revoked, a reopen) at `now`, one batch
    /// like a command: the ack carries `acknowledging` the change's event and the `seq` that shows it.
    public func applyChange(
        now: Timestamp, acknowledging replyID: (GameEvent) -> CommandID,
        _ change: (inout Game) throws(GameError) -> CommandOutcome
    ) -> GameEffects {
        let before = seq
        do {
            return effects(of: try viewModel.record(now: now, acknowledging: replyID, change), since: before)
        } catch {
            return GameEffects(events: [], reply: .rejected(id: nil, failure: CommandFailure(error)), patch: nil)
        }
    }

    /// Lets time pass up to `now` (the time limit), returning the effects.
    public func applyTick(now: Timestamp) -> GameEffects {
        let before = seq
        return effects(of: viewModel.tick(now: now), since: before)
    }

    /// Applies one whole stored batch numbered `revision` (this node's append once stored, or another node's), once,
    /// returning the same effects as a command (no reply: the batch's sender is answered by its own node).
    public func applyStored(_ events: [GameEvent], revision: Int) throws(GameReplayError) -> GameEffects {
        let before = seq
        return effects(of: try viewModel.applyStored(events, revision: revision), since: before)
    }

    /// The batch with the patch its revision committed (the presenter commits inside the batch, when the view
    /// model's revision grows; nothing else is read from an observer).
    private func effects(of batch: ScoreboardBatch, since before: Int) -> GameEffects {
        GameEffects(events: batch.events, reply: batch.reply, patch: seq > before ? mutableLatestPatch.value : nil)
    }

    /// Stops observing the view model (the document stays as it was).
    public func detach() {
        bindings.removeAll()
    }

    private func bindFields() {
        bind(viewModel.time, to: GameDocument.time) { .string($0) }
        bind(viewModel.score, to: GameDocument.score) { .string($0) }
        bind(viewModel.homeScore, to: GameDocument.homeScore) { .int($0) }
        bind(viewModel.awayScore, to: GameDocument.awayScore) { .int($0) }
        bind(viewModel.isPaused, to: GameDocument.isPaused) { .bool($0) }
        bind(viewModel.isFinished, to: GameDocument.isFinished) { .bool($0) }
        bind(viewModel.winner, to: GameDocument.winner) { $0.map { .string($0.rawValue) } ?? .null }
        bind(viewModel.clock, to: GameDocument.clock, GameDocument.clockJSON)
        viewModel.status.bindAndFire { [unowned self] status in
            for (key, value) in GameDocument.statusMembers(status) {
                publisher.set(value, at: JSONPointer(tokens: [key]))
            }
            // Present only while true, so a game that never has a review keeps the document it always had.
            publisher.set(status.isUnderReview ? .bool(true) : nil, at: JSONPointer(tokens: ["underReview"]))
            for (key, players) in [("homePlayers", viewModel.homePlayers), ("awayPlayers", viewModel.awayPlayers)] {
                for (index, player) in players.enumerated() {
                    let onCourt = status.onCourt?[player.playerID]
                    publisher.set(
                        onCourt.map { .bool($0) } ?? .null,
                        at: JSONPointer(tokens: [key, String(index), "onCourt"]))
                }
            }
        }.store(in: bindings)
        viewModel.stats.bindAndFire { [unowned self] stats in
            for (key, players) in [("homePlayers", viewModel.homePlayers), ("awayPlayers", viewModel.awayPlayers)] {
                for (index, player) in players.enumerated() {
                    guard let line = stats.players[player.playerID] else { continue }
                    let path = JSONPointer(tokens: [key, String(index)])
                    publisher.set(GameDocument.statsJSON(line), at: path.appending("stats"))
                    publisher.set(.int(Int(line.playedMs)), at: path.appending("playedMs"))
                }
            }
            publisher.set(GameDocument.teamStatsJSON(stats.teams.home), at: GameDocument.homeStats)
            publisher.set(GameDocument.teamStatsJSON(stats.teams.away), at: GameDocument.awayStats)
            publisher.set(GameDocument.periodScoresJSON(stats.periodScores), at: GameDocument.periodScores)
        }.store(in: bindings)
        // Only the plays a batch changed are written, each at its index (a new one appends), so a long game's
        // play-by-play costs one operation per play, not a diff of the whole list.
        let writePlays = { [unowned self] (rows: [PlayRow]) in
            for row in rows {
                publisher.set(GameDocument.playJSON(row), at: GameDocument.plays.appending(row.play.number - 1))
            }
        }
        writePlays(viewModel.plays)
        viewModel.changedPlays.bind(writePlays).store(in: bindings)
        if viewModel.rules.dualConfirmation != nil {
            bind(viewModel.conflicts, to: GameDocument.conflicts) { .array($0.map(GameDocument.conflictJSON)) }
        }
        for (key, players) in [("homePlayers", viewModel.homePlayers), ("awayPlayers", viewModel.awayPlayers)] {
            for (index, player) in players.enumerated() {
                let path = JSONPointer(tokens: [key, String(index)])
                for (field, move) in GameDocument.countFields {
                    bind(player.moveCount(move), to: path.appending(field)) { .string($0) }
                }
                bind(player.points, to: path.appending("points")) { .int($0) }
            }
        }
    }

    private func bind<T>(_ dynamic: Dynamic<T>, to path: JSONPointer, _ encode: @escaping (T) -> JSONValue) {
        dynamic.bindAndFire { [unowned self] value in
            publisher.set(encode(value), at: path)
        }.store(in: bindings)
    }
}

@available(*, unavailable)
extension GamePresenter: Sendable {}
