import CourtsideTestSupport
import Testing

@testable import CourtsideHTTP

/// Everything the parser produced for one input.
struct ParseOutcome: Equatable {
    var requests: [HTTPRequest] = []
    var error: HTTPParseError?
    /// Bytes still buffered at the end (a partial request).
    var buffered = 0
}

func parse(_ input: [UInt8], limits: HTTPParserLimits = .default, feeding: Feeding) -> ParseOutcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = ParseOutcome()
    for chunk in feeding.chunks(input) {
        parser.feed(chunk)
        while true {
            switch parser.next() {
            case .request(let request):
                outcome.requests.append(request)
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
    _ input: [UInt8], limits: HTTPParserLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> ParseOutcome {
    Feeding.sameOutcomeEveryWay(sourceLocation: sourceLocation) { parse(input, limits: limits, feeding: $0) }
}

func dripParse(
    _ input: String, limits: HTTPParserLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> ParseOutcome {
    dripParse(Array(input.utf8), limits: limits, sourceLocation: sourceLocation)
}

/// Parses one request that must succeed, fed every way.
func parseOne(
    _ input: String, limits: HTTPParserLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) throws -> HTTPRequest {
    let outcome = dripParse(input, limits: limits, sourceLocation: sourceLocation)
    #expect(outcome.error == nil, "unexpected \(String(describing: outcome.error))", sourceLocation: sourceLocation)
    #expect(outcome.requests.count == 1, sourceLocation: sourceLocation)
    return try #require(outcome.requests.first, sourceLocation: sourceLocation)
}

/// Parses input that must be refused, fed every way, and returns the error.
func parseError(
    _ input: String, limits: HTTPParserLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) throws -> HTTPParseError {
    try parseError(Array(input.utf8), limits: limits, sourceLocation: sourceLocation)
}

func parseError(
    _ input: [UInt8], limits: HTTPParserLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) throws -> HTTPParseError {
    let outcome = dripParse(input, limits: limits, sourceLocation: sourceLocation)
    return try #require(outcome.error, "expected a parse error", sourceLocation: sourceLocation)
}
