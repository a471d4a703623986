/// A table written as CSV that opens cleanly in a spreadsheet: RFC 4180 (CRLF line ends, fields holding a comma,
/// a quote or a line break quoted, quotes doubled), UTF-8 with a byte-order mark so spreadsheets read names right.
///
/// Text cells are guarded against formula injection (OWASP "CSV Injection"): a text that begins with `=`, `+`, `-`,
/// `@`, a tab or a carriage return would be run as a formula by a spreadsheet, so it is written with a leading `'`,
/// which spreadsheets show as text. Number cells are written as numbers and never guarded.
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

    /// The text with a leading `'` when a spreadsheet would take it for a formula.
    static func guarded(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) else {
            return text
        }
        return "'" + text
    }

    /// RFC 4180 §2: a field with a comma, a quote or a line break is quoted, its quotes doubled.
    static func field(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { [",", "\"", "\r", "\n"].contains($0) }) else { return text }
        var quoted = "\""
        for character in text {
            quoted += character == "\"" ? "\"\"" : String(character)
        }
        return quoted + "\""
    }
}
