/// How many timeouts each team may take.
public enum TimeoutRules: Sendable, Hashable {
    /// A fixed number for the whole game, overtime included (FIBA 3x3 rule 13: one each).
    case perGame(Int)
    /// FIBA 5x5 art. 18.2.5: `firstHalf` in periods 1–2, `secondHalf` in periods 3–4 (unused ones do not carry
    /// over), and `perOvertime` in each overtime. The 5x5 limit of two in the last two minutes is not enforced.
    case perHalf(firstHalf: Int, secondHalf: Int, perOvertime: Int)

    /// Timeouts each team has at the start of the game.
    var atStart: Int {
        switch self {
        case .perGame(let count): count
        case .perHalf(let firstHalf, _, _): firstHalf
        }
    }

    /// The allowance that begins with `period` (nil when the teams keep what they have).
    func allowance(beginning period: Int, regulationPeriods: Int) -> Int? {
        switch self {
        case .perGame:
            return nil
        case .perHalf(_, let secondHalf, let perOvertime):
            if period > regulationPeriods { return perOvertime }
            return period == regulationPeriods / 2 + 1 ? secondHalf : nil
        }
    }
}
