import CourtsideRedis
import Testing

@Suite("RESP parser: malformed input and limits")
struct RESPParserErrorTests {
    @Test("malformed lines, lengths and scalars are refused with what was wrong")
    func malformed() {
        #expect(failure("?x\r\n") == .unknownType(UInt8(ascii: "?")))
        #expect(failure("\r\n") == .unknownType(0x0D))
        #expect(failure("+OK\n") == .invalidLineEnding)
        #expect(failure("+O\rK\r\n") == .invalidLineEnding)
        #expect(failure("$x\r\n") == .invalidLength("x"))
        #expect(failure("$-2\r\n") == .invalidLength("-2"))
        #expect(failure("!-1\r\n") == .invalidLength("-1"), "only $ and * have RESP2 nulls")
        #expect(failure("%-1\r\n") == .invalidLength("-1"))
        #expect(failure("$\r\n") == .invalidLength(""))
        #expect(failure("$3\r\nabcd\r\n") == .missingBulkTerminator)
        #expect(failure(":12a\r\n") == .invalidScalar(type: ":", text: "12a"))
        #expect(failure(":99999999999999999999\r\n") == .invalidScalar(type: ":", text: "99999999999999999999"))
        #expect(failure(": 1\r\n") == .invalidScalar(type: ":", text: " 1"))
        #expect(failure("#x\r\n") == .invalidScalar(type: "#", text: "x"))
        #expect(failure("_x\r\n") == .invalidScalar(type: "_", text: "x"))
        #expect(failure(",1.2.3\r\n") == .invalidScalar(type: ",", text: "1.2.3"))
        #expect(failure(",0x10\r\n") == .invalidScalar(type: ",", text: "0x10"))
        #expect(failure("(12-3\r\n") == .invalidScalar(type: "(", text: "12-3"))
        #expect(failure("=2\r\nab\r\n") == .invalidVerbatimString)
        #expect(failure("$?\r\n") == .streamedTypeUnsupported)
        #expect(failure("*?\r\n") == .streamedTypeUnsupported)
    }

    @Test("a failure is sticky: later bytes are dropped and next() keeps failing")
    func stickyFailure() {
        var parser = RESPParser()
        parser.feed(Array("?\r\n+OK\r\n".utf8))
        #expect(parser.next() == .failed(.unknownType(UInt8(ascii: "?"))))
        parser.feed(Array("+OK\r\n".utf8))
        #expect(parser.next() == .failed(.unknownType(UInt8(ascii: "?"))))
        #expect(parser.bufferedByteCount == 0)
    }

    @Test("a line past maxLineBytes is refused before its end arrives, the same however it is split")
    func lineLimit() {
        let limits = RESPParserLimits(maxLineBytes: 8)
        #expect(replies("+1234567\r\n", limits: limits) == [.simpleString("1234567")])
        #expect(failure("+12345678\r\n", limits: limits) == .lineTooLong(limit: 8))
        // No LF yet: nine bytes plus a CR is already too long, so the parser does not wait for the end.
        var parser = RESPParser(limits: limits)
        parser.feed(Array("+123456789".utf8))
        #expect(parser.next() == .failed(.lineTooLong(limit: 8)))
    }

    @Test("a bulk length past maxBulkBytes is refused at its header, before the payload is buffered")
    func bulkLimit() {
        let limits = RESPParserLimits(maxBulkBytes: 4)
        #expect(replies("$4\r\nabcd\r\n", limits: limits) == [.bulkString(Array("abcd".utf8))])
        #expect(failure("$5\r\n", limits: limits) == .bulkTooLong(length: 5, limit: 4))
        #expect(failure("!5\r\n", limits: limits) == .bulkTooLong(length: 5, limit: 4))
        #expect(failure("$999999999999999999\r\n") == .bulkTooLong(length: 999_999_999_999_999_999, limit: 16 << 20))
        #expect(failure("$9999999999999999999\r\n") == .invalidLength("9999999999999999999"))
    }

    @Test("an aggregate count past maxAggregateElements is refused at its header; maps count pairs twice")
    func aggregateLimit() {
        let limits = RESPParserLimits(maxAggregateElements: 4)
        #expect(replies("*4\r\n:1\r\n:2\r\n:3\r\n:4\r\n", limits: limits).count == 1)
        #expect(failure("*5\r\n", limits: limits) == .aggregateTooLarge(count: 5, limit: 4))
        #expect(failure("%3\r\n", limits: limits) == .aggregateTooLarge(count: 6, limit: 4))
        #expect(failure("*2000000000\r\n") == .aggregateTooLarge(count: 2_000_000_000, limit: 1 << 20))
    }

    @Test("nesting past maxDepth is refused")
    func depthLimit() {
        let limits = RESPParserLimits(maxDepth: 3)
        #expect(replies("*1\r\n*1\r\n*1\r\n:1\r\n", limits: limits) == [.array([.array([.array([.integer(1)])])])])
        #expect(failure("*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n", limits: limits) == .tooDeep(limit: 3))
        #expect(failure(String(repeating: "*1\r\n", count: 40)) == .tooDeep(limit: 32))
    }

    @Test("one reply past maxReplyBytes is refused; the budget restarts with each reply")
    func replyLimit() {
        let limits = RESPParserLimits(maxReplyBytes: 20)
        // "*2\r\n" (4) + "$3\r\nabc\r\n" (9) twice = 22 bytes.
        #expect(failure("*2\r\n$3\r\nabc\r\n$3\r\nabc\r\n", limits: limits) == .replyTooLarge(limit: 20))
        // The same bytes as three separate replies are fine: each is under 20.
        #expect(replies("$3\r\nabc\r\n$3\r\nabc\r\n+OK\r\n", limits: limits).count == 3)
        // The bulk header already announces the overflow.
        #expect(failure("$30\r\n", limits: limits) == .replyTooLarge(limit: 20))
    }
}
