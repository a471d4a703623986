import CourtsideBytes
import CourtsideModel

/// Keeps one game's presentation document (STATE in docs/protocol.md) and turns each batch of its view model into
/// one patch message.
///
/// The presenter observes nothing: each `apply…` method applies one change to the view model, which returns the
/// batch as a value (events, reply, frame, revision), and the next document is the pure function
/// ``GameDocumentState/next(_:)`` of the previous one and that batch. So one command is one message, whose `seq` is
/// the revision, and every effect comes back as a value (``GameEffects``). The view model's `Dynamic`s still take
/// every value, bound by the tutorial's pages, but the patches do not come from them.
///
/// Every change to the view model must go through the presenter (a batch it does not see would be missing from the
/// next patch). Loop-confined, like its view model.
public final class GamePresenter {
    public let viewModel: GameScoreboardEditorViewModel
    /// The published document and what it shows.
    public private(set) var state: GameDocumentState
    private var cachedSnapshot: EncodedMessage?
    private let commandDecoder: CommandDecoder

    /// A presenter of `viewModel`. Each patch is dated (`"at"`, server Unix milliseconds) by the instant the view
    /// model shows its batch as of (a command's arrival, a tick's deadline, a stored batch's last event), never by a
    /// clock of its own: so every node that applies one stored batch dates its patch alike and sends the same bytes,
    /// and a test sets the date through the `now` it applies commands at.
    public init(viewModel: GameScoreboardEditorViewModel, commandDecoder: CommandDecoder = CommandDecoder()) {
        self.viewModel = viewModel
        self.commandDecoder = commandDecoder
        self.state = GameDocumentState(of: viewModel)
    }

    /// The sequence number of the published document.
    public var seq: Int { state.seq }

    /// The document as of ``seq``.
    public var document: JSONValue { state.document }

    /// A snapshot message of the published document, encoded once per `seq`.
    public func snapshot() -> EncodedMessage {
        if let cachedSnapshot, cachedSnapshot.seq == state.seq { return cachedSnapshot }
        let snapshot = DocumentStream.game(id: viewModel.gameID.rawValue).snapshot(of: state.document, seq: state.seq)
        cachedSnapshot = snapshot
        return snapshot
    }

    /// Decodes a scorer's command and applies it at `now`, returning its effects (the reply, and the patch when the
    /// command changed anything shown).
    @discardableResult
    public func apply(commandBytes bytes: some Collection<UInt8>, now: Timestamp) -> GameEffects {
        apply(commandDecoder.decode(bytes), now: now)
    }

    /// Applies `command` at `now` (sent by `member`; nil: the game's scorer token), returning its effects.
    @discardableResult
    public func apply(_ command: GameCommand, by member: CrewMemberID? = nil, now: Timestamp) -> GameEffects {
        present(viewModel.apply(command, by: member, now: now))
    }

    /// Applies a command decoded on arrival (or answers why it is not one) at `now`, returning every effect as a
    /// value: the events to journal, the reply, and the patch when anything shown changed.
    /// `member` is the table-crew member who sent it (nil: the game's scorer token).
    @discardableResult
    public func apply(
        _ decoded: Result<GameCommand, CommandRejection>, by member: CrewMemberID? = nil, now: Timestamp
    ) -> GameEffects {
        switch decoded {
        case .success(let command): apply(command, by: member, now: now)
        case .failure(let rejection): GameEffects(events: [], reply: rejection.reply, patch: nil)
        }
    }

    /// Records a change that is not a command (a table-crew member added or revoked, a reopen) at `now`, one batch
    /// like a command: the ack carries `acknowledging` the change's event and the `seq` that shows it.
    public func applyChange(
        now: Timestamp, acknowledging replyID: (GameEvent) -> CommandID,
        _ change: (inout Game) throws(GameError) -> CommandOutcome
    ) -> GameEffects {
        do {
            return present(try viewModel.record(now: now, acknowledging: replyID, change))
        } catch {
            return GameEffects(events: [], reply: .rejected(id: nil, failure: CommandFailure(error)), patch: nil)
        }
    }

    /// Lets time pass up to `now` (the time limit), returning the effects.
    @discardableResult
    public func applyTick(now: Timestamp) -> GameEffects {
        present(viewModel.tick(now: now))
    }

    /// Applies one whole stored batch numbered `revision` (another node's, read from the feed), once, returning the
    /// same effects as a command (no reply: the batch's sender is answered by its own node).
    @discardableResult
    public func applyStored(_ events: [GameEvent], revision: Int) throws(GameReplayError) -> GameEffects {
        present(try viewModel.applyStored(events, revision: revision))
    }

    /// Shows this node's own proposal once the shared log stored it as `revision`: the game the proposal made is
    /// taken as is (the events are applied once), with the same effects (and bytes) as ``applyStored(_:revision:)``
    /// gives every other node.
    @discardableResult
    public func applyProposed(
        _ proposed: Game, events: [GameEvent], revision: Int
    ) throws(GameReplayError) -> GameEffects {
        present(try viewModel.applyProposed(proposed, events: events, revision: revision))
    }

    /// The batch's effects, the document moved on by the pure step when the batch is newer than it.
    private func present(_ batch: ScoreboardBatch) -> GameEffects {
        guard let (next, patch) = state.next(batch) else {
            return GameEffects(events: batch.events, reply: batch.reply, patch: nil)
        }
        state = next
        return GameEffects(events: batch.events, reply: batch.reply, patch: patch)
    }
}

@available(*, unavailable)
extension GamePresenter: Sendable {}
