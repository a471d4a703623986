import CourtsideFuzzSupport
import CourtsideHTTP

/// The properties every input must keep, whatever its bytes. A violation aborts, which libFuzzer reports as a
/// crash with the input saved; in replay mode it fails the run.
enum HTTPParserInvariants {
    /// Small limits, so that short fuzz inputs reach every limit's code path; equal byte limits make the bound on
    /// what a waiting parser may hold (`maxBuffered`) tight for every state.
    static let limits = HTTPParserLimits(
        maxRequestLineBytes: 256, maxHeaderBytes: 256, maxHeaderCount: 16, maxBodyBytes: 256, maxChunkLineBytes: 32)
    /// A waiting parser holds at most one unfinished line (its limit plus a CR) or one declared body.
    static let maxBuffered = max(limits.maxRequestLineBytes, limits.maxHeaderBytes, limits.maxBodyBytes) + 1
    /// Roomy limits for re-parsing what we re-serialised (lossy UTF-8 decoding can grow a value threefold).
    static let roomy = HTTPParserLimits(
        maxRequestLineBytes: 4096, maxHeaderBytes: 16_384, maxHeaderCount: 64, maxBodyBytes: 4096,
        maxChunkLineBytes: 32)
    static let statuses: Set<Int> = [400, 413, 414, 431, 501, 505]

    struct Outcome: Equatable {
        var requests: [HTTPRequest] = []
        var error: HTTPParseError?
    }

    static func check(_ input: [UInt8]) {
        let whole = parse(input, splits: [])
        // The same bytes split at points chosen from the input itself, and byte by byte for short inputs,
        // must give exactly the same requests and error.
        let splits = FuzzCheck.splitPoints(for: input)
        FuzzCheck.require(parse(input, splits: splits) == whole, "split feeding differs from whole feeding")
        if input.count <= 1024 {
            FuzzCheck.require(parse(input, splits: Array(0..<input.count)) == whole, "byte-by-byte feeding differs")
        }

        FuzzCheck.require(whole.requests.count <= input.count / 16 + 1, "more requests than the bytes can hold")
        if let error = whole.error {
            FuzzCheck.require(statuses.contains(error.status.code), "unexpected status \(error.status) for \(error)")
            FuzzCheck.require(!error.description.isEmpty, "error without description")
        }
        for request in whole.requests { checkRequest(request) }
    }

    static func checkRequest(_ request: HTTPRequest) {
        let head = request.head
        FuzzCheck.require(request.body.count <= limits.maxBodyBytes, "body over the limit")
        FuzzCheck.require(head.headers.count <= limits.maxHeaderCount, "too many headers")
        FuzzCheck.require(head.target.utf8.count <= limits.maxRequestLineBytes, "target over the request line limit")
        FuzzCheck.require(head.version == .http1_0 || head.version == .http1_1, "unsupported version \(head.version)")
        FuzzCheck.require(head.path == "*" || head.path.hasPrefix("/"), "path does not start with / : \(head.path)")
        FuzzCheck.require(!head.path.utf8.contains(0), "NUL in path")
        let decodedSlashes = head.path.utf8.filter { $0 == UInt8(ascii: "/") }.count
        let rawSlashes = head.target.utf8.filter { $0 == UInt8(ascii: "/") }.count
        FuzzCheck.require(decodedSlashes <= max(rawSlashes, 1), "decoding created a slash")
        for (name, value) in head.headers {
            FuzzCheck.require(
                !name.isEmpty && !name.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: ":") }, "bad name")
            FuzzCheck.require(
                !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "line break or NUL in a value")
            FuzzCheck.require(value.first != " " && value.last != " ", "untrimmed value")
        }
        let connection = head.headers.tokens(for: "Connection")
        let expectedKeepAlive =
            !connection.contains("close") && (head.version == .http1_1 || connection.contains("keep-alive"))
        FuzzCheck.require(head.keepAlive == expectedKeepAlive, "keep-alive disagrees with the Connection header")
        _ = head.queryItems
        _ = HTTPPath.hasDotSegment(head.path)
        checkRoundTrip(request)
    }

    /// Re-serialising a parsed request and parsing it again gives the same head and body.
    static func checkRoundTrip(_ request: HTTPRequest) {
        var text = "\(request.head.method.rawValue) \(request.head.target) \(request.head.version)\r\n"
        for (name, value) in request.head.headers {
            if name.lowercased() == "content-length" || name.lowercased() == "transfer-encoding" { continue }
            text += "\(name): \(value)\r\n"
        }
        text += "Content-Length: \(request.body.count)\r\n\r\n"
        var parser = HTTPRequestParser(limits: roomy)
        parser.feed(Array(text.utf8) + request.body)
        guard case .request(let again) = parser.next() else {
            FuzzCheck.fail("re-serialised request does not parse: \(text.debugDescription)")
        }
        FuzzCheck.require(again.body == request.body, "round trip changed the body")
        FuzzCheck.require(again.head.target == request.head.target, "round trip changed the target")
        FuzzCheck.require(again.head.path == request.head.path, "round trip changed the path")
        FuzzCheck.require(again.head.method == request.head.method, "round trip changed the method")
        FuzzCheck.require(again.head.keepAlive == request.head.keepAlive, "round trip changed keep-alive")
        FuzzCheck.require(parser.next() == .needMoreData && parser.bufferedByteCount == 0, "round trip left bytes")
    }

    /// Feeds `input` cut at `splits`, collecting everything `next()` returns.
    static func parse(_ input: [UInt8], splits: [Int]) -> Outcome {
        var parser = HTTPRequestParser(limits: limits)
        var outcome = Outcome()
        for piece in FuzzCheck.pieces(input, at: splits) {
            parser.feed(piece)
            while true {
                let result = parser.next()
                switch result {
                case .request(let request):
                    outcome.requests.append(request)
                    continue
                case .needMoreData:
                    break
                case .failed(let error):
                    FuzzCheck.require(parser.bufferedByteCount == 0, "a failed parser holds bytes")
                    FuzzCheck.require(parser.next() == result, "failure is not sticky")
                    outcome.error = error
                    return outcome
                }
                break
            }
            FuzzCheck.require(parser.bufferedByteCount <= input.count, "buffer larger than the input")
            FuzzCheck.require(parser.bufferedByteCount <= maxBuffered, "parser holds \(parser.bufferedByteCount) bytes")
        }
        return outcome
    }

}
