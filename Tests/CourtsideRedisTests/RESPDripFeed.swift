import CourtsideRedis
import CourtsideTestSupport
import Testing

/// Everything the parser produced for one input. Values are compared by their encoding, so that a NaN double
/// equals itself.
struct RESPOutcome: Equatable, CustomStringConvertible {
    var values: [RESPValue] = []
    var error: RESPParseError?
    /// Bytes still buffered at the end (a partial reply).
    var buffered = 0

    static func == (lhs: RESPOutcome, rhs: RESPOutcome) -> Bool {
        lhs.values.map(\.encoded) == rhs.values.map(\.encoded) && lhs.error == rhs.error
            && lhs.buffered == rhs.buffered
    }

    var description: String { "values \(values), error \(String(describing: error)), buffered \(buffered)" }
}

func parseRESP(_ input: [UInt8], limits: RESPParserLimits = .default, feeding: Feeding) -> RESPOutcome {
    var parser = RESPParser(limits: limits)
    var outcome = RESPOutcome()
    for chunk in feeding.chunks(input) {
        parser.feed(chunk)
        while true {
            switch parser.next() {
            case .value(let value):
                outcome.values.append(value)
                continue
            case .needMoreData:
                break
            case .failed(let error):
                outcome.error = error
                return outcome
            }
            break
        }
    }
    outcome.buffered = parser.bufferedByteCount
    return outcome
}

/// Parses `input` whole, byte by byte and in seeded random chunks, expects the same outcome from each, and
/// returns it.
func dripParse(
    _ input: [UInt8], limits: RESPParserLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> RESPOutcome {
    Feeding.sameOutcomeEveryWay(sourceLocation: sourceLocation) { parseRESP(input, limits: limits, feeding: $0) }
}

func dripParse(
    _ input: String, limits: RESPParserLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> RESPOutcome {
    dripParse(Array(input.utf8), limits: limits, sourceLocation: sourceLocation)
}

/// The replies in `input`, which must parse completely, fed every way.
func replies(
    _ input: String, limits: RESPParserLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> [RESPValue] {
    let outcome = dripParse(input, limits: limits, sourceLocation: sourceLocation)
    #expect(outcome.error == nil, "unexpected \(String(describing: outcome.error))", sourceLocation: sourceLocation)
    #expect(outcome.buffered == 0, "bytes left over", sourceLocation: sourceLocation)
    return outcome.values
}

/// The error `input` must end in, fed every way.
func failure(
    _ input: String, limits: RESPParserLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> RESPParseError? {
    let outcome = dripParse(Array(input.utf8), limits: limits, sourceLocation: sourceLocation)
    #expect(outcome.error != nil, "expected a parse error, got \(outcome)", sourceLocation: sourceLocation)
    return outcome.error
}
