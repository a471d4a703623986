/// Two scorers who confirm each other (docs/protocol.md, "Two scorers who confirm each other"): the rules option
/// `"confirmation":"dual"`, with the window the second scorer has to enter the same move.
///
/// A wrong score on a livestream is the one error everybody sees; two paper scorers keeping one sheet each and
/// comparing them is how a table catches it. With this option a move that scores points or is a foul, entered by a
/// scorer, counts only once a second scorer entered the same move.
public struct DualConfirmation: Sendable, Hashable {
    /// The window when none is given: long enough for a second scorer who looked up at the court, short enough
    /// that a missed entry shows as a conflict while the play is still fresh in both scorers' minds.
    public static let defaultWindowMs: Int64 = 8000
    /// The windows accepted: under a second no human confirms, over a minute the score lags the game visibly.
    public static let windowRange: ClosedRange<Int64> = 1000...60_000

    /// Milliseconds (server time) the other scorer has to enter the same move.
    public let windowMs: Int64

    public init(windowMs: Int64 = defaultWindowMs) throws(RulesError) {
        guard Self.windowRange.contains(windowMs) else { throw .confirmWindowOutOfRange(windowMs) }
        self.windowMs = windowMs
    }
}

extension Rules {
    /// These rules with two scorers confirming each other's scoring moves within `windowMs`.
    public func confirmedByTwoScorers(windowMs: Int64 = DualConfirmation.defaultWindowMs) throws(RulesError) -> Rules {
        var rules = self
        rules.dualConfirmation = try DualConfirmation(windowMs: windowMs)
        return rules
    }
}
