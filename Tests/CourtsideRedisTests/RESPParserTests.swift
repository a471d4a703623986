import CourtsideRedis
import Testing

@Suite("RESP parser: replies as Redis sends them")
struct RESPParserTests {
    @Test("RESP2 scalars: status, error, integer, bulk and the two nulls")
    func resp2Scalars() {
        #expect(replies("+OK\r\n") == [.simpleString("OK")])
        #expect(replies("-WRONGTYPE Operation against a key\r\n") == [.error("WRONGTYPE Operation against a key")])
        #expect(replies(":0\r\n:-42\r\n:+7\r\n") == [.integer(0), .integer(-42), .integer(7)])
        #expect(replies(":9223372036854775807\r\n") == [.integer(.max)])
        #expect(replies("$5\r\nhello\r\n") == [.bulkString(Array("hello".utf8))])
        #expect(replies("$0\r\n\r\n") == [.bulkString([])])
        #expect(replies("$-1\r\n*-1\r\n") == [.null, .null])
    }

    @Test("a bulk string is binary-safe: CR, LF and NUL inside are data")
    func binarySafeBulk() {
        #expect(replies("$6\r\na\r\n\0b\n\r\n") == [.bulkString([0x61, 0x0D, 0x0A, 0, 0x62, 0x0A])])
    }

    @Test("RESP3 scalars: null, booleans, doubles, big numbers, bulk errors, verbatim strings")
    func resp3Scalars() {
        #expect(replies("_\r\n#t\r\n#f\r\n") == [.null, .boolean(true), .boolean(false)])
        #expect(
            replies(",3.25\r\n,-1e3\r\n,inf\r\n,-inf\r\n") == [
                .double(3.25), .double(-1000), .double(.infinity), .double(-.infinity),
            ])
        let nan = replies(",nan\r\n")
        if case .double(let value) = nan.first { #expect(value.isNaN) } else { Issue.record("not a double: \(nan)") }
        #expect(
            replies("(3492890328409238509324850943850943825024385\r\n") == [
                .bigNumber("3492890328409238509324850943850943825024385")
            ])
        #expect(replies("!21\r\nSYNTAX invalid syntax\r\n") == [.error("SYNTAX invalid syntax")])
        #expect(replies("=15\r\ntxt:Some string\r\n") == [.verbatimString(format: "txt", Array("Some string".utf8))])
    }

    @Test("aggregates nest, and empty ones complete at once")
    func aggregates() {
        #expect(replies("*2\r\n$3\r\nfoo\r\n:1\r\n") == [.array([.bulkString(Array("foo".utf8)), .integer(1)])])
        #expect(replies("*0\r\n~0\r\n%0\r\n") == [.array([]), .set([]), .map([])])
        #expect(replies("*2\r\n*1\r\n:1\r\n*0\r\n") == [.array([.array([.integer(1)]), .array([])])])
        #expect(replies("~2\r\n+a\r\n+b\r\n") == [.set([.simpleString("a"), .simpleString("b")])])
        #expect(
            replies("%2\r\n+first\r\n:1\r\n+second\r\n*1\r\n:2\r\n") == [
                .map([
                    RESPMapEntry(key: .simpleString("first"), value: .integer(1)),
                    RESPMapEntry(key: .simpleString("second"), value: .array([.integer(2)])),
                ])
            ])
        #expect(
            replies(">2\r\n+message\r\n$2\r\nhi\r\n") == [
                .push([.simpleString("message"), .bulkString(Array("hi".utf8))])
            ])
        // A null inside an array (RESP2 XREAD with no data, EXEC aborted, a missing hash field).
        #expect(replies("*2\r\n$-1\r\n_\r\n") == [.array([.null, .null])])
    }

    @Test("an XREAD reply (four levels) is one value; the next reply follows it")
    func streamReply() {
        let input =
            "*1\r\n*2\r\n$4\r\nfeed\r\n*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$1\r\ng\r\n$2\r\ng1\r\n" + "+OK\r\n"
        let values = replies(input)
        #expect(values.count == 2)
        let entry = values.first?.elements?.first?.elements?[1].elements?.first?.elements
        #expect(entry?[0].string == "1-0")
        #expect(entry?[1].elements?.compactMap(\.string) == ["g", "g1"])
        #expect(values.last == .simpleString("OK"))
    }

    @Test("attributes are read and dropped, at the top and inside aggregates")
    func attributesDropped() {
        #expect(replies("|1\r\n+key-popularity\r\n%1\r\n$1\r\na\r\n,0.19\r\n*1\r\n:2\r\n") == [.array([.integer(2)])])
        #expect(replies("*2\r\n:1\r\n|1\r\n+ttl\r\n:3600\r\n:2\r\n") == [.array([.integer(1), .integer(2)])])
        #expect(replies("|0\r\n+OK\r\n") == [.simpleString("OK")])
    }

    @Test("pipelined replies come out one per next(), in order, and a partial one waits")
    func pipelinedAndPartial() {
        let outcome = dripParse("+OK\r\n:1\r\n$3\r\nab")
        #expect(outcome.values == [.simpleString("OK"), .integer(1)])
        #expect(outcome.error == nil)
        #expect(outcome.buffered == 2)
        var parser = RESPParser()
        parser.feed(Array("*2\r\n:1\r\n".utf8))
        #expect(parser.next() == .needMoreData)
        #expect(!parser.isIdle)
        parser.feed(Array(":2\r\n".utf8))
        #expect(parser.next() == .value(.array([.integer(1), .integer(2)])))
        #expect(parser.next() == .needMoreData)
        #expect(parser.isIdle)
    }

    @Test("accessors read strings, bytes, integers, elements and errors")
    func accessors() {
        #expect(RESPValue.bulkString(Array("12".utf8)).integer == 12)
        #expect(RESPValue.simpleString("OK").string == "OK")
        #expect(RESPValue.verbatimString(format: "txt", [0x61]).bytes == [0x61])
        #expect(RESPValue.integer(3).string == nil)
        #expect(RESPValue.error("ERR x").errorMessage == "ERR x")
        #expect(RESPValue.simpleString("OK").errorMessage == nil)
        #expect(RESPValue.set([.null]).elements == [.null])
        #expect(RESPValue.null.isNull)
    }
}
