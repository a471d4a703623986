/// The id of a game; it names the game on the wire (`"game":"<id>"`) and in routes (`/api/games/{id}`).
public struct GameID: StringIdentifier {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
