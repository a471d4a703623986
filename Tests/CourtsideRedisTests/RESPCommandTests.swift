import CourtsideRedis
import Testing

@Suite("RESP command and value encoding")
struct RESPCommandTests {
    @Test("a command is an array of bulk strings, built once")
    func commandBytes() {
        let command = RESPCommand("SET", "key", .bytes([0, 0x0D, 0x0A]), 42)
        #expect(
            String(decoding: command.bytes, as: UTF8.self)
                == "*4\r\n$3\r\nSET\r\n$3\r\nkey\r\n$3\r\n\0\r\n\r\n$2\r\n42\r\n")
        #expect(command.name == "SET")
        #expect(RESPCommand("ping").bytes == Array("*1\r\n$4\r\nping\r\n".utf8))
        #expect(RESPCommand("get", ["ü"]).bytes == Array("*2\r\n$3\r\nget\r\n$2\r\nü\r\n".utf8))
        #expect(command.description == "SET", "the description never shows the arguments (passwords, data)")
    }

    @Test("a command parses as the array of its arguments (what a server sees)")
    func commandParsesBack() {
        let command = RESPCommand("XADD", "feed", "*", "e", .bytes(Array("{\"a\":1}\r\n".utf8)))
        let outcome = dripParse(command.bytes)
        #expect(
            outcome.values == [
                .array(["XADD", "feed", "*", "e", "{\"a\":1}\r\n"].map { .bulkString(Array($0.utf8)) })
            ])
    }

    @Test("every value encodes to RESP3 bytes that parse back to itself")
    func valueRoundTrip() {
        let values: [RESPValue] = [
            .simpleString("OK"), .simpleString("two\r\nlines"), .error("ERR no"), .error("multi\nline"),
            .integer(.min), .bulkString([0, 1, 2]), .verbatimString(format: "txt", Array("hi".utf8)),
            .double(-0.5), .double(1e300), .double(.infinity), .boolean(true), .bigNumber("-123456789012345678901234"),
            .null, .array([.integer(1), .array([])]), .set([.null]), .push([.simpleString("x")]),
            .map([RESPMapEntry(key: .bulkString([1]), value: .map([]))]),
        ]
        for value in values {
            let parsed = dripParse(value.encoded).values
            let expected: RESPValue
            switch value {
            case .simpleString(let text) where text.contains("\r\n"): expected = .bulkString(Array(text.utf8))
            default: expected = value
            }
            #expect(parsed == [expected], "\(value)")
        }
    }
}
