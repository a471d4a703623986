/// A player of a game: a stable positional id and a display name.
public struct Player: Sendable, Hashable, Codable, Identifiable {
    public let id: PlayerID
    public let name: String

    public init(id: PlayerID, name: String) {
        self.id = id
        self.name = name
    }
}
