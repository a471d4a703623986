import CourtsideViewModels
import Testing

@Suite("JSON values: canonical encoding, parsing, pointers")
struct JSONValueTests {
    @Test("canonical encoding sorts keys by UTF-8 bytes, has no whitespace and writes integers plainly")
    func canonicalEncoding() {
        let value: JSONValue = ["b": 1, "a": [true, nil, "x"], "B": .number(2.5), "é": -3, "aa": [:]]
        #expect(value.description == #"{"B":2.5,"a":[true,null,"x"],"aa":{},"b":1,"é":-3}"#)
        #expect(JSONValue.int(1_700_000_000_123).description == "1700000000123")
        #expect(JSONValue.number(0.1).description == "0.1")
    }

    @Test("strings escape quote, backslash and control characters only")
    func stringEscapes() {
        let value = JSONValue.string("a\"b\\c\n\t\u{01}/é😀")
        #expect(value.description == #""a\"b\\c\n\t\u0001/é😀""#)
    }

    @Test("parsing then encoding is the identity on canonical text, and whitespace does not matter")
    func roundTrip() throws {
        let canonical = #"{"a":[1,-2,3.5,1e-07,true,false,null],"b":{"c":"d\u001f"},"e":""}"#
        #expect(try JSONValue(parsing: canonical).description == canonical)
        let spaced = " {\n \"e\" : \"\" , \"b\":{\"c\":\"d\\u001F\"},\t\"a\":[1,-2,3.5,1E-7,true,false,null]}\r\n"
        #expect(try JSONValue(parsing: spaced) == (try JSONValue(parsing: canonical)))
    }

    @Test("escapes decode, including surrogate pairs")
    func escapes() throws {
        #expect(try JSONValue(parsing: #""\u00e9\ud83d\ude00\/\b\f\r""#) == .string("é😀/\u{08}\u{0C}\r"))
    }

    @Test(
        "malformed input fails with the reason and the offset",
        arguments: [
            ("", JSONParseError.unexpectedEnd(offset: 0)),
            ("{\"a\":1,}", .unexpectedByte(UInt8(ascii: "}"), offset: 7)),
            ("[1 2]", .unexpectedByte(UInt8(ascii: "2"), offset: 3)),
            ("01", .trailingBytes(offset: 1)),
            ("-", .invalidNumber(offset: 0)),
            ("1.", .invalidNumber(offset: 0)),
            ("\"\\x\"", .invalidEscape(offset: 1)),
            ("\"\\ud800\"", .invalidEscape(offset: 1)),
            ("\"a\nb\"", .controlCharacterInString(offset: 2)),
            ("{\"a\":1,\"a\":2}", .duplicateKey("a", offset: 7)),
            ("tru", .unexpectedEnd(offset: 3)),
            ("{} x", .trailingBytes(offset: 3)),
        ])
    func malformed(input: String, expected: JSONParseError) {
        #expect(throws: expected) { try JSONValue(parsing: input) }
    }

    @Test("invalid UTF-8 inside a string is refused")
    func invalidUTF8() {
        #expect(throws: JSONParseError.invalidUTF8(offset: 4)) { try JSONValue(parsing: [0x22, 0x61, 0xFF, 0x22]) }
    }

    @Test("nesting beyond the limit is refused")
    func depthLimit() throws {
        let deep = String(repeating: "[", count: 5) + String(repeating: "]", count: 5)
        #expect(try JSONValue(parsing: deep, maxDepth: 5).description == deep)
        #expect(throws: JSONParseError.tooDeep(limit: 4, offset: 4)) { try JSONValue(parsing: deep, maxDepth: 4) }
    }

    @Test("pointers escape ~ as ~0 and / as ~1, ~ first")
    func pointerEscaping() {
        #expect(JSONPointer.escape("a/b~c") == "a~1b~0c")
        #expect(JSONPointer.escape("~1") == "~01")
        #expect(JSONPointer.root.appending("games").appending("g/1").appending(2).description == "/games/g~11/2")
        #expect(JSONPointer.root.description == "")
    }

    @Test("value(at:) and setValue(_:at:) follow pointers through objects and arrays")
    func pointerEvaluation() {
        var document: JSONValue = ["a": ["x", ["b": 1]], "c/d": true]
        #expect(document.value(at: JSONPointer(tokens: ["a", "1", "b"])) == 1)
        #expect(document.value(at: JSONPointer(tokens: ["c/d"])) == true)
        #expect(document.value(at: JSONPointer(tokens: ["a", "01"])) == nil)
        let setInArray = document.setValue(2, at: JSONPointer(tokens: ["a", "1", "b"]))
        let removed = document.setValue(nil, at: JSONPointer(tokens: ["c/d"]))
        let setMissing = document.setValue(3, at: JSONPointer(tokens: ["missing", "x"]))
        #expect(setInArray && removed && !setMissing)
        #expect(document.description == #"{"a":["x",{"b":2}]}"#)
    }
}
