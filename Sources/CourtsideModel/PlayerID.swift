/// A player's stable id, `home-0` … `home-2` and `away-0` … `away-2`.
///
/// Ids are positional so that a scorer page, the journal and the wire agree on them without a lookup table;
/// an id that names no player of the game is still a valid `PlayerID` (the game rejects it with `unknownPlayer`).
public struct PlayerID: StringIdentifier {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The id of the player at `index` (0-based) on `side`: `PlayerID(side: .away, index: 1)` is `away-1`.
    public init(side: TeamSide, index: Int) {
        self.rawValue = "\(side.rawValue)-\(index)"
    }
}
