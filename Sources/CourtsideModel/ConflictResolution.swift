/// Which entry of a conflict a scorer keeps; the raw values are the wire's `"keep"` (docs/protocol.md, "Two scorers
/// who confirm each other").
public enum ConflictResolution: String, Sendable, Hashable, Codable, CaseIterable {
    /// The first scorer's entry: the play counts as it was entered.
    case first
    /// The second scorer's entry: the play counts as the second scorer entered it.
    case second
    /// Both: the play counts as entered, and the second entry counts as a play of its own (two different baskets).
    case both
    /// Neither: the play is deleted and counts nothing.
    case neither
}
