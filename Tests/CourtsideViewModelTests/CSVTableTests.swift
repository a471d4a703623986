import Testing

@testable import CourtsideViewModels

/// The CSV writer's defences against formula injection (OWASP "CSV Injection"), whatever separator the spreadsheet
/// that opens the file splits on.
@Suite("CSV table: quoting and the formula guard")
struct CSVTableTests {
    private func csv(_ text: String) -> String {
        let table = CSVTable(header: ["Name"], rows: [[.text(text), .number(-3), .empty]])
        // The row is what follows the header line, less its own CRLF (a cell may hold line breaks).
        let text = String(decoding: table.bytes, as: UTF8.self)
        let prefix = "\u{FEFF}\"Name\"\r\n"
        #expect(text.hasPrefix(prefix) && text.hasSuffix("\r\n"))
        return String(text.dropFirst(prefix.count).dropLast())
    }

    @Test("every text cell is quoted, the header too; numbers and empty cells are not")
    func quoting() {
        let table = CSVTable(header: ["Team", "PTS"], rows: [[.text("Owls"), .number(12), .empty]])
        #expect(String(decoding: table.bytes, as: UTF8.self) == "\u{FEFF}\"Team\",\"PTS\"\r\n\"Owls\",12,\r\n")
        #expect(csv("Flo \"The Flash\"") == "\"Flo \"\"The Flash\"\"\",-3,")
    }

    @Test(
        "a formula character is guarded at the start and after every separator a reader may split on",
        arguments: [
            ("=1+1", "'=1+1"),
            ("x;=1+1", "x;'=1+1"),
            ("a\t=1", "a\t'=1"),
            ("\t=1", "'\t'=1"),
            ("a,@SUM(A1)", "a,'@SUM(A1)"),
            ("a;+1;-2", "a;'+1;'-2"),
            ("a\r\n=1", "a\r\n'=1"),
            ("a\r=1", "a\r'=1"),
            ("a;\r", "a;'\r"),
        ])
    func guarded(text: String, expected: String) {
        #expect(CSVTable.guarded(text) == expected)
        #expect(csv(text) == "\"\(expected)\",-3,")
    }

    @Test(
        "names without a separator before a formula character are written as they are",
        arguments: ["Jean-Luc", "Bo, Jr.", "A+", "ann@example.org", "O'Neil", "Zoë ; Ana"])
    func ordinaryNames(name: String) {
        #expect(CSVTable.guarded(name) == name)
        #expect(csv(name) == "\"\(name)\",-3,")
    }
}
