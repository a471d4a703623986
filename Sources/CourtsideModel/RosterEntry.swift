/// One line of a roster as given when a game is created: a name and an optional shirt number.
///
/// JSON shape: `"Ann"` or `{"name":"Ann","number":"7"}`; a roster without numbers is written as plain names, as
/// before numbers existed, so older journals read back unchanged.
public struct RosterEntry: Sendable, Hashable, ExpressibleByStringLiteral {
    public var name: String
    public var number: String?

    public init(name: String, number: String? = nil) {
        self.name = name
        self.number = number
    }

    public init(stringLiteral value: String) {
        self.init(name: value)
    }

    /// Whether `number` is a shirt number FIBA allows: one or two digits ("0", "00" … "99"; art. 4.3.2).
    static func isValidNumber(_ number: String) -> Bool {
        (1...2).contains(number.utf8.count)
            && number.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

extension RosterEntry: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, number
    }

    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self.init(name: name)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            number: try container.decodeIfPresent(String.self, forKey: .number))
    }

    public func encode(to encoder: any Encoder) throws {
        guard let number else {
            var container = encoder.singleValueContainer()
            try container.encode(name)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(number, forKey: .number)
    }
}
