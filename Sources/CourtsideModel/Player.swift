/// A player of a game: a stable positional id, a display name and, optionally, a shirt number.
public struct Player: Sendable, Hashable, Codable, Identifiable {
    public let id: PlayerID
    public let name: String
    /// The shirt number as printed ("0", "00", "23"), or nil when the roster gave none.
    public let number: String?

    public init(id: PlayerID, name: String, number: String? = nil) {
        self.id = id
        self.name = name
        self.number = number
    }
}
