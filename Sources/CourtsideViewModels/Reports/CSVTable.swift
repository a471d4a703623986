/// A table written as CSV that opens cleanly in a spreadsheet: RFC 4180 (CRLF line ends, fields quoted, quotes
/// doubled), UTF-8 with a byte-order mark so spreadsheets read names right.
///
/// Text cells are guarded against formula injection (OWASP "CSV Injection"). Every text cell is quoted, so a comma,
/// a quote or a line break in it never ends the field for a reader that honours quoting. A reader may not: a
/// spreadsheet opening the file in a locale that separates fields with `;`, or one told to split on tabs, or a
/// script that splits lines, sees a new field after that character, and a field that begins with `=`, `+`, `-`,
/// `@`, a tab or a carriage return is run as a formula. So a `'` (which spreadsheets show as text) is written before
/// such a character at the start of the text and after every `,`, `;`, tab, carriage return or line feed in it. A
/// name without those separators followed by one of those characters (`Jean-Luc`, `Bo, Jr.`, `A+`) is written as
/// it is. Number cells are written as numbers and never guarded.
public struct CSVTable: Sendable, Equatable {
    /// One cell.
    public enum Cell: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case text(String)
        case number(Int)
        case empty

        public init(stringLiteral value: String) { self = .text(value) }
        public init(integerLiteral value: Int) { self = .number(value) }
    }

    public var header: [String]
    public var rows: [[Cell]]

    public init(header: [String], rows: [[Cell]] = []) {
        self.header = header
        self.rows = rows
    }

    /// The table as CSV bytes.
    public var bytes: [UInt8] {
        var text = "\u{FEFF}"
        text += header.map { Self.field(Self.guarded($0)) }.joined(separator: ",") + "\r\n"
        for row in rows {
            text += row.map(Self.encode).joined(separator: ",") + "\r\n"
        }
        return Array(text.utf8)
    }

    static func encode(_ cell: Cell) -> String {
        switch cell {
        case .text(let text): field(guarded(text))
        case .number(let number): String(number)
        case .empty: ""
        }
    }

    /// The characters a spreadsheet takes as the start of a formula at the start of a field.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
    /// The characters after which some reader starts a new field: the separators spreadsheets use (`,`, `;`, a
    /// tab) and the line breaks.
    static let fieldBreaks: Set<Unicode.Scalar> = [",", ";", "\t", "\r", "\n"]

    /// The text with a `'` before every formula character that starts it or follows a field break.
    static func guarded(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var atFieldStart = true
        for scalar in text.unicodeScalars {
            if atFieldStart, formulaStarts.contains(scalar) { result.append("'") }
            result.append(scalar)
            atFieldStart = fieldBreaks.contains(scalar)
        }
        return String(result)
    }

    /// RFC 4180 §2: the field in quotes, its quotes doubled.
    static func field(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            quoted.unicodeScalars.append(scalar)
            if scalar == "\"" { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "\""
    }
}
