import CourtsideFuzzSupport
import CourtsideRedis

/// The properties every input must keep, whatever its bytes. A violation aborts, which libFuzzer reports as a
/// crash with the input saved; in replay mode it fails the run.
enum RESPParserInvariants {
    /// Small limits, so that short inputs reach every limit's code path.
    static let limits = RESPParserLimits(
        maxLineBytes: 64, maxBulkBytes: 64, maxAggregateElements: 8, maxDepth: 4, maxReplyBytes: 256)
    /// A waiting parser holds at most one unfinished line (its limit plus a CR) or one bulk payload and its CR.
    static let maxBuffered = max(limits.maxLineBytes, limits.maxBulkBytes) + 1
    /// Roomy limits for re-parsing what we re-encoded (re-encoding may lengthen lossy UTF-8 or a double).
    static let roomy = RESPParserLimits(maxLineBytes: 4096, maxBulkBytes: 4096, maxReplyBytes: 1 << 20)

    struct Outcome: Equatable {
        /// Values by their encoding, so a NaN compares equal to itself.
        var values: [[UInt8]] = []
        var parsed: [RESPValue] = []
        var error: RESPParseError?

        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            lhs.values == rhs.values && lhs.error == rhs.error
        }
    }

    static func check(_ input: [UInt8]) {
        let whole = parse(input, splits: [])
        // The same bytes split at points chosen from the input itself, and byte by byte for short inputs, must
        // give exactly the same replies and error.
        let splits = FuzzCheck.splitPoints(for: input)
        require(parse(input, splits: splits) == whole, "split feeding differs from whole feeding")
        if input.count <= 1024 {
            require(parse(input, splits: Array(0..<input.count)) == whole, "byte-by-byte feeding differs")
        }
        // The shortest reply is three bytes (`_\r\n`, `:1` needs four).
        require(whole.parsed.count <= input.count / 3, "more replies than the bytes can hold")
        if let error = whole.error { require(!error.description.isEmpty, "error without description") }
        for value in whole.parsed {
            checkLimits(value, depth: 0)
            checkRoundTrip(value)
        }
    }

    /// Every reply respects the limits it was parsed under.
    static func checkLimits(_ value: RESPValue, depth: Int) {
        switch value {
        case .bulkString(let bytes): require(bytes.count <= limits.maxBulkBytes, "bulk over the limit")
        case .simpleString(let text): require(!text.utf8.contains(0x0A), "LF in a simple string")
        case .array(let elements), .set(let elements), .push(let elements):
            require(depth < limits.maxDepth, "nested deeper than the limit")
            require(elements.count <= limits.maxAggregateElements, "aggregate over the limit")
            for element in elements { checkLimits(element, depth: depth + 1) }
        case .map(let entries):
            require(depth < limits.maxDepth, "nested deeper than the limit")
            require(entries.count * 2 <= limits.maxAggregateElements, "map over the limit")
            for entry in entries {
                checkLimits(entry.key, depth: depth + 1)
                checkLimits(entry.value, depth: depth + 1)
            }
        default: break
        }
    }

    /// Encoding a parsed reply and parsing it again gives a reply with the same encoding, leaving no bytes.
    static func checkRoundTrip(_ value: RESPValue) {
        let bytes = value.encoded
        var parser = RESPParser(limits: roomy)
        parser.feed(bytes)
        guard case .value(let again) = parser.next() else {
            fail("re-encoded reply does not parse: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        require(again.encoded == bytes, "round trip changed the reply")
        require(parser.next() == .needMoreData && parser.bufferedByteCount == 0, "round trip left bytes")
    }

    /// Feeds `input` cut at `splits`, collecting everything `next()` returns.
    static func parse(_ input: [UInt8], splits: [Int]) -> Outcome {
        var parser = RESPParser(limits: limits)
        var outcome = Outcome()
        for piece in FuzzCheck.pieces(input, at: splits) {
            parser.feed(piece)
            while true {
                let result = parser.next()
                switch result {
                case .value(let value):
                    outcome.parsed.append(value)
                    outcome.values.append(value.encoded)
                    continue
                case .needMoreData:
                    break
                case .failed(let error):
                    require(parser.bufferedByteCount == 0, "a failed parser holds bytes")
                    require(parser.next() == result, "failure is not sticky")
                    outcome.error = error
                    return outcome
                }
                break
            }
            require(parser.bufferedByteCount <= input.count, "buffer larger than the input")
            require(parser.bufferedByteCount <= maxBuffered, "parser holds \(parser.bufferedByteCount) bytes")
        }
        return outcome
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        FuzzCheck.require(condition, message())
    }

    static func fail(_ message: String) -> Never {
        FuzzCheck.fail(message)
    }
}
