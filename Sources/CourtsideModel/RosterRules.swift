/// How many players a team may list and how many play at once.
public struct RosterRules: Sendable, Hashable {
    /// The most players any rules allow on a roster (FIBA 5x5 art. 4.2.2: twelve).
    public static let maxPlayers = 12

    /// Fewest and most players a team lists.
    public let players: ClosedRange<Int>
    /// Players on court at once, or nil when every listed player plays and there are no substitutions.
    public let onCourt: Int?

    public init(players: ClosedRange<Int>, onCourt: Int? = nil) {
        self.players = players
        self.onCourt = onCourt
    }

    /// Three to twelve, no substitutions: the tutorial's three stay valid.
    public static let standard = RosterRules(players: 3...maxPlayers)
}
