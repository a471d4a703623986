/// A team's colour and short name, as a scoreboard shows them (docs/protocol.md). Both are optional at creation; a team
/// without them gets its side's default colour and a short name made from its name, so every document and page
/// always has both.
public struct TeamBranding: Sendable, Hashable, Codable {
    /// Letters a short name may have: enough for "LA", "HAW" or "BOST", few enough for a lower third.
    public static let shortNameLengths = 2...4

    /// `#RRGGBB` in upper case, when one was given.
    public let color: String?
    /// Two to four letters in upper case, when one was given.
    public let short: String?

    public static let none = TeamBranding(validColor: nil, validShort: nil)

    private init(validColor: String?, validShort: String?) {
        self.color = validColor
        self.short = validShort
    }

    /// Validates the inputs for `side` (empty counts as not given): a colour is `#` and six hexadecimal digits
    /// (the CSS form a form's colour input gives), a short name 2–4 letters A–Z.
    public init(color: String?, short: String?, side: TeamSide) throws(GameSetupError) {
        let color = color.flatMap { $0.isEmpty ? nil : $0 }
        let short = short.flatMap { $0.isEmpty ? nil : $0 }
        if let color, !Self.isValidColor(color) { throw .invalidColor(side, color) }
        if let short, !Self.isValidShortName(short) { throw .invalidShortName(side, short) }
        self.init(validColor: color?.uppercased(), validShort: short?.uppercased())
    }

    public static func isValidColor(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return false }
        return bytes.dropFirst().allSatisfy { isHexDigit($0) }
    }

    public static func isValidShortName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return shortNameLengths.contains(bytes.count) && bytes.allSatisfy(isASCIILetter)
    }

    /// The colour shown for `side` when none was given: a blue and a red, both dark enough for white text.
    public static func defaultColor(_ side: TeamSide) -> String {
        side == .home ? "#1F4E9C" : "#B42318"
    }

    /// The short name shown when none was given: the first three letters of the name (A–Z), upper case, or the
    /// side's when the name has fewer than two.
    public static func defaultShortName(name: String, side: TeamSide) -> String {
        let letters = name.utf8.filter(isASCIILetter).prefix(3)
        guard letters.count >= shortNameLengths.lowerBound else { return side == .home ? "HOME" : "AWAY" }
        return String(decoding: letters, as: UTF8.self).uppercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
