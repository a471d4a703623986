/// The id of a game in a `GameLibrary`; it names the game on the wire (`"game":"<id>"`).
public struct GameID: StringIdentifier {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
