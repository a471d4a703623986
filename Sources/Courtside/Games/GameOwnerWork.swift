import CourtsideModel
import CourtsideViewModels

/// A piece of work a game's owner performs in arrival order (`GameOwnerStateMachine`): a scorer's command (or an
/// administrative change, a reopen or a crew member added or revoked, which takes the same path), time passing to the
/// game's next deadline, or the archive.
enum GameOwnerWork {
    case command(CommandRequest)
    /// Let time pass to `deadline` (the model's `nextDeadline` when the timer was armed).
    case tick(Timestamp)
    case archive(Timestamp)
}

/// What the owner's game shows, as the machine needs it to decide: the published `seq`, how many events the game
/// holds (a stored batch must follow them), and the model's next deadline (one timer for it).
struct GameOwnerView: Equatable {
    var seq: Int
    var heldEvents: Int
    var nextDeadline: Timestamp?
}

/// What a piece of work would store on a shared log, computed on a copy of the game (`GameOwner` reports it with
/// `proposed(_:)`).
enum GameOwnerProposal {
    /// Store these events; the command (if any) is acked with `acknowledging` once they are stored, and `making`
    /// (the game the events make, computed once) is shown as is (the events are not applied a second time).
    case append([GameEvent], acknowledging: CommandID?, making: Game)
    /// Answer the command with this at once: a refusal, or the answer its id got before; nothing to store.
    case answer(CommandReply)
    /// Nothing to store and nobody to answer (a tick with nothing due).
    case nothing
}
