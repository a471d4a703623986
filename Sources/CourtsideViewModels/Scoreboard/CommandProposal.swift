import CourtsideModel

/// What a command would do to a game, computed on a copy and shown nowhere (`propose(_:now:)`): a shared log
/// stores a command's events before any node applies them, so its owner asks for the events first; the view model's
/// own `apply` takes the same decision and shows it at once.
public enum CommandProposal {
    /// Store these events; `Game` is the game they make.
    case append([GameEvent], Game)
    /// The id was answered before (accepted, or refused and still remembered): the same answer, nothing to store.
    case repeated(CommandReply)
    /// Refused by the rules, nothing to store (remembered for a retry unless the id belongs to an accepted command).
    case refused(CommandReply)
}
