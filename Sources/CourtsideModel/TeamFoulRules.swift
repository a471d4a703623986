/// Team fouls and the penalty, as the rules define them.
///
/// The count a team is "in the penalty" from is the first foul that gives free throws: FIBA 3x3 rule 15.3 (fouls 7
/// to 9: two free throws; 10 and more: two free throws and possession), FIBA 5x5 art. 41.2 (from the 5th team
/// foul of a quarter; fouls in an overtime count with the 4th quarter).
public struct TeamFoulRules: Sendable, Hashable {
    /// The team foul from which a team is in the penalty (7 in FIBA 3x3, 5 in FIBA 5x5).
    public let penaltyFrom: Int
    /// The team foul from which the other team also gets the ball, or nil when the rules have no such step.
    public let possessionFrom: Int?
    /// Whether the count starts again every regulation period (5x5) rather than running the whole game (3x3).
    public let resetsEachPeriod: Bool

    public init(penaltyFrom: Int, possessionFrom: Int? = nil, resetsEachPeriod: Bool) {
        self.penaltyFrom = penaltyFrom
        self.possessionFrom = possessionFrom
        self.resetsEachPeriod = resetsEachPeriod
    }

    /// Whether a team with `fouls` team fouls is in the penalty.
    public func isInPenalty(fouls: Int) -> Bool {
        fouls >= penaltyFrom
    }

    /// The stretch of the game whose fouls count together: one for the whole game, or the regulation period (an
    /// overtime continues the last one).
    func window(period: Int, regulationPeriods: Int) -> Int {
        resetsEachPeriod ? min(period, regulationPeriods) : 1
    }
}
