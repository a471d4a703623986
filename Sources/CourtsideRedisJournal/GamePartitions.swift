import CourtsideModel

/// Where a game lives when games are partitioned over several Redis servers (docs/cluster.md, "Past one Redis"):
/// pure functions of the game id and the number of partitions, so every node maps an id to its Redis without a
/// lookup. Partition 0 numbers its games `game-N` (the ids of a single Redis, kept), partition P ≥ 1 `game-P-N`.
public enum GamePartitions {
    /// The partition that holds `id` among `count`, or nil when the id cannot be one this store made (malformed, a
    /// partition that does not exist, `game-0-N`): such a game is unknown (404). With one partition every id maps to
    /// it, exactly as a single Redis stores whatever id it was given.
    public static func partition(of id: GameID, count: Int) -> Int? {
        guard count > 1 else { return count == 1 ? 0 : nil }
        let parts = id.rawValue.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.first == "game", parts.dropFirst().allSatisfy(isCanonicalNumber) else { return nil }
        switch parts.count {
        case 2:
            return 0
        case 3:
            guard let index = Int(parts[1]), index >= 1, index < count else { return nil }
            return index
        default:
            return nil
        }
    }

    /// The prefix of the ids partition `index` makes (`game-` for 0, `game-P-` otherwise).
    public static func idPrefix(forPartition index: Int) -> String {
        index == 0 ? "game-" : "game-\(index)-"
    }

    /// The partition a new game goes to: the one holding the fewest games among those that answered (`counts[P]`
    /// nil: partition P did not answer), ties to the lowest index; nil when none answered.
    public static func partitionForNewGame(counts: [Int?]) -> Int? {
        var best: (index: Int, count: Int)?
        for (index, count) in counts.enumerated() {
            guard let count else { continue }
            if best.map({ count < $0.count }) ?? true { best = (index, count) }
        }
        return best?.index
    }

    /// A positive decimal number as the counters write it: digits, no sign, no leading zero, at most 18 digits (so
    /// it fits an `Int`; `INCR` is 64-bit).
    private static func isCanonicalNumber(_ text: Substring) -> Bool {
        guard let first = text.first, first != "0", text.count <= 18 else { return false }
        return text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
