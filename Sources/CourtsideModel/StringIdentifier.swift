/// An id that is a string on the wire and in the journal, wrapped in its own type so that a game id can never be
/// passed where a player id is expected.
///
/// Conforming types declare only `rawValue` and `init(rawValue:)`; this protocol supplies the rest, and the standard
/// library's `RawRepresentable` conformance encodes them as bare JSON strings.
public protocol StringIdentifier: RawRepresentable, Sendable, Hashable, Comparable, Codable,
    CustomStringConvertible, ExpressibleByStringLiteral
where RawValue == String {
    init(rawValue: String)
}

extension StringIdentifier {
    public init(_ rawValue: String) {
        self.init(rawValue: rawValue)
    }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { rawValue }
}
