/// The one rule for every name a person types and a screen shows: team and player names (games and the pickup
/// queue) and court names. A name goes to every spectator's phone, the venue's TVs and the reports, so it must be
/// short in what it costs (not only in what it looks like) and must show what it says.
///
/// Limits are counted in Unicode scalars and UTF-8 bytes, not grapheme clusters: one "character" can be a letter
/// followed by thousands of combining marks (a name of 40 such characters was megabytes). So a name is, once trimmed
/// of surrounding whitespace:
/// - 1 to `maxScalars` scalars and at most `maxBytes` bytes of UTF-8;
/// - at most `maxMarksPerCharacter` combining marks in a row (enough for Vietnamese or Devanagari, not for a
///   "zalgo" tower);
/// - free of control characters (Unicode Cc: NUL, tabs, line breaks) and of line and paragraph separators;
/// - free of format characters (Cf: bidi overrides and isolates, zero-width spaces, soft hyphens), except the
///   zero-width joiner and non-joiner that emoji sequences and Persian or Indic names need between letters;
/// - free of unassigned and private-use code points (they show as boxes, or as anything a font decides);
/// - made of at least one visible scalar (not only joiners, variation selectors, fillers such as U+3164).
///
/// Not enforced: confusable look-alikes (a Cyrillic "а" in a Latin name) and offensive words; an admin removes a
/// queued team by hand.
public enum DisplayName {
    /// Scalars in a name: long enough for real names, short enough for a scoreboard line.
    public static let maxScalars = 40
    /// UTF-8 bytes in a name: four per scalar, the most a scalar takes, so the two limits agree for any script.
    public static let maxBytes = 160
    /// Combining marks in a row after a base character.
    public static let maxMarksPerCharacter = 4

    /// `raw` trimmed of surrounding whitespace, or the first problem it has.
    public static func validated(_ raw: String) throws(DisplayNameError) -> String {
        let name = String(raw.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if name.isEmpty { throw .empty }
        if name.utf8.count > maxBytes { throw .tooManyBytes(limit: maxBytes) }
        var scalars = 0
        var marks = 0
        var visible = false
        for scalar in name.unicodeScalars {
            scalars += 1
            if scalars > maxScalars { throw .tooLong(limit: maxScalars) }
            let category = scalar.properties.generalCategory
            switch category {
            case .control, .lineSeparator, .paragraphSeparator:
                throw .controlCharacter(scalar.value)
            case .format where scalar.value != 0x200C && scalar.value != 0x200D:
                throw .formatCharacter(scalar.value)
            case .unassigned, .privateUse, .surrogate:
                throw .unassigned(scalar.value)
            case .nonspacingMark, .spacingMark, .enclosingMark:
                marks += 1
                if marks > maxMarksPerCharacter { throw .tooManyMarks(limit: maxMarksPerCharacter) }
            default:
                marks = 0
            }
            if isVisible(scalar, category) { visible = true }
        }
        if !visible { throw .invisible }
        return name
    }

    /// Whether the scalar draws something: not a space, a joiner, a mark without a base, or a default-ignorable
    /// code point (fillers, variation selectors), nor the blank Braille pattern.
    private static func isVisible(_ scalar: Unicode.Scalar, _ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .spaceSeparator, .format, .nonspacingMark, .enclosingMark, .control: return false
        default: return !scalar.properties.isDefaultIgnorableCodePoint && scalar.value != 0x2800
        }
    }
}

/// Why a name was refused; each case names the problem, and `sentence` says it for a form.
public enum DisplayNameError: Error, Sendable, Hashable {
    case empty
    /// More than `limit` Unicode scalars.
    case tooLong(limit: Int)
    /// More than `limit` bytes of UTF-8.
    case tooManyBytes(limit: Int)
    /// More than `limit` combining marks on one character.
    case tooManyMarks(limit: Int)
    /// A control character or line break (its code point).
    case controlCharacter(UInt32)
    /// An invisible formatting character such as a bidi override (its code point).
    case formatCharacter(UInt32)
    /// An unassigned or private-use code point.
    case unassigned(UInt32)
    /// Nothing in the name is visible.
    case invisible

    /// The problem in words, for the field's message.
    public var sentence: String {
        switch self {
        case .empty: "Enter a name"
        case .tooLong(let limit): "Use at most \(limit) characters"
        case .tooManyBytes(let limit): "Use at most \(limit) bytes of UTF-8"
        case .tooManyMarks(let limit): "Use at most \(limit) accents on one letter"
        case .controlCharacter(let value): "Remove the control character \(Self.codePoint(value))"
        case .formatCharacter(let value): "Remove the invisible formatting character \(Self.codePoint(value))"
        case .unassigned(let value): "Remove the unassigned or private character \(Self.codePoint(value))"
        case .invisible: "Use visible letters"
        }
    }

    /// `U+202E`.
    public static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
