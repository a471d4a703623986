/// A table-crew member's id within its game: `m1`, `m2`, … in the order the members were added, never reused.
public struct CrewMemberID: StringIdentifier {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The id of the `number`th member added (from 1).
    public init(number: Int) {
        self.rawValue = "m\(number)"
    }
}
