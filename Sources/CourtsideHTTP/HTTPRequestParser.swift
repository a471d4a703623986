#if canImport(Glibc)
    import Glibc
#endif

/// An incremental HTTP/1.1 request parser (RFC 9112), written as a value-type state machine that never does I/O.
///
/// Feed it bytes as they arrive, then call `next()` until it says `.needMoreData`: requests come out in the order
/// they were sent, so pipelining is just calling `next()` again. Each limit in `HTTPParserLimits` is checked as
/// soon as it can be crossed, so a hostile peer cannot make it buffer more than a limit's worth of a head.
///
/// Bodies: `Content-Length` and `Transfer-Encoding: chunked` (de-chunked, trailers validated and dropped).
/// Not enforced here: `Expect: 100-continue` (the body is awaited without an interim response), routing,
/// method semantics, and what to do with `Upgrade` (see `takeUnconsumedBytes()`).
public struct HTTPRequestParser: Sendable {
    /// The bounds this parser enforces.
    public let limits: HTTPParserLimits

    // Internal (not private) only so the topic files (+Head, +Chunked) can reach them.
    /// Received bytes not yet consumed start at `readIndex`; consumed ones are dropped in `feed` once they make
    /// up half the buffer, so compaction costs stay linear.
    var buffer: [UInt8] = []
    var readIndex = 0
    /// How many bytes of the current line (from `readIndex`) were already searched for LF, so that feeding one
    /// byte at a time does not rescan the line each time.
    var scannedBytes = 0
    var state: State = .requestLine

    enum State {
        /// Waiting for the request line; empty lines before it are skipped (RFC 9112 §2.2).
        case requestLine
        /// Request line parsed; reading field lines.
        case headers(PartialHead)
        /// Head complete; waiting for `length` body bytes, which stay in `buffer` until all have arrived.
        case fixedBody(HTTPRequestHead, length: Int)
        /// Chunked body: waiting for a chunk-size line (RFC 9112 §7.1).
        case chunkSize(HTTPRequestHead, body: [UInt8])
        /// Chunked body: copying `remaining` bytes of chunk data.
        case chunkData(HTTPRequestHead, body: [UInt8], remaining: Int)
        /// Chunked body: chunk data done, waiting for its CRLF.
        case chunkDataEnd(HTTPRequestHead, body: [UInt8])
        /// Chunked body: last chunk seen, reading the trailer section.
        case trailers(HTTPRequestHead, body: [UInt8], bytes: Int, count: Int)
        /// A request was refused; the parser stays here and drops further input.
        case failed(HTTPParseError)
        /// Held only while a case's payload is being mutated, so the payload's buffer is uniquely referenced.
        case modifying
    }

    struct PartialHead {
        var method: HTTPMethod
        var target: String
        var path: String
        var query: String?
        var version: HTTPVersion
        var headers: HTTPHeaders
        /// Bytes of the header section so far, CRLFs included.
        var headerBytes: Int
        /// What framing and keep-alive look for, noted as each field arrives (a name's length decides whether it
        /// is compared at all), so a complete head is not searched field by field four times over.
        var hostCount = 0
        var hasFramingField = false
        var hasConnection = false

        /// Counts `name` among the fields framing and keep-alive depend on (RFC 9112 §3.2, §6.3, §9.3).
        mutating func note(_ name: String) {
            switch name.utf8.count {
            case 4: if HTTPHeaders.sameName(name, "Host") { hostCount += 1 }
            case 10: if HTTPHeaders.sameName(name, "Connection") { hasConnection = true }
            case 14: if HTTPHeaders.sameName(name, "Content-Length") { hasFramingField = true }
            case 17: if HTTPHeaders.sameName(name, "Transfer-Encoding") { hasFramingField = true }
            default: break
            }
        }
    }

    /// Buffer capacity kept between requests: enough for any ordinary head, so steady traffic does not reallocate.
    static let retainedCapacity = 64 * 1024

    public init(limits: HTTPParserLimits = .default) {
        self.limits = limits
    }

    /// Appends received bytes. Nothing is parsed until `next()`.
    public mutating func feed(_ bytes: some Collection<UInt8>) {
        guard prepareToFeed() else { return }
        buffer.append(contentsOf: bytes)
    }

    /// ``feed(_:)`` for raw memory holding bytes (a socket's read buffer): appended as one block copy.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard prepareToFeed() else { return }
        bytes.withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
    }

    /// Drops consumed bytes before more are appended; false when the parser has failed and takes nothing.
    private mutating func prepareToFeed() -> Bool {
        if case .failed = state { return false }
        if readIndex > 0 && readIndex == buffer.count && buffer.capacity > Self.retainedCapacity {
            buffer = []  // after a large body, give the memory back rather than keep it per idle connection
            readIndex = 0
        } else if readIndex > 0 && readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        return true
    }

    /// The buffer capacity an idle kept-alive connection keeps for its next request: an ordinary request's head fits,
    /// and a buffer given back after every request was a heap block per request (docs/benchmarks.md, "Static files").
    static let idleCapacity = 2048

    /// Between requests with nothing buffered (`isIdle`): forgets the consumed bytes, and gives the memory back
    /// unless it is at most `idleCapacity`, so an idle connection holds at most that.
    public mutating func clearIdleBuffer() {
        guard isIdle else { return }
        if buffer.capacity > Self.idleCapacity {
            buffer = []
        } else {
            buffer.removeAll(keepingCapacity: true)
        }
        readIndex = 0
        scannedBytes = 0
    }

    /// Bytes received but not consumed by any returned request.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Whether the parser is between requests with nothing buffered: a connection closed now lost nothing.
    public var isIdle: Bool {
        if case .requestLine = state { return buffer.count == readIndex }
        return false
    }

    /// Hands over every byte after the last returned request and resets the parser. Call it right after a
    /// `.request` whose upgrade you accept: those bytes belong to the new protocol (a client may send its
    /// first WebSocket frame without waiting for the 101).
    public mutating func takeUnconsumedBytes() -> [UInt8] {
        let rest = Array(buffer[readIndex...])
        buffer = []
        readIndex = 0
        scannedBytes = 0
        if case .failed = state { return rest }
        state = .requestLine
        return rest
    }

    /// Parses as far as the buffered bytes allow.
    public mutating func next() -> HTTPParserResult {
        do throws(HTTPParseError) {
            while true {
                switch try step() {
                case .request(let request): return .request(request)
                case .progressed: continue
                case .needMoreData: return .needMoreData
                }
            }
        } catch {
            state = .failed(error)
            buffer = []
            readIndex = 0
            scannedBytes = 0
            return .failed(error)
        }
    }

    enum Step {
        case request(HTTPRequest)
        /// Consumed bytes or changed state: try again.
        case progressed
        case needMoreData
    }

    /// One transition.
    mutating func step() throws(HTTPParseError) -> Step {
        switch state {
        case .requestLine:
            let tooLong = HTTPParseError.requestLineTooLong(limit: limits.maxRequestLineBytes)
            guard
                let line = try nextLine(
                    maxLength: limits.maxRequestLineBytes, tooLong: tooLong, context: "request line")
            else { return .needMoreData }
            if line.isEmpty { return .progressed }  // RFC 9112 §2.2: ignore empty lines before the request line.
            state = .headers(try parseRequestLine(buffer[line]))
            return .progressed

        case .headers(var head):
            let tooLarge = HTTPParseError.headerSectionTooLarge(limit: limits.maxHeaderBytes)
            let budget = limits.maxHeaderBytes - head.headerBytes - 2
            guard budget >= 0 else { throw tooLarge }
            guard let line = try nextLine(maxLength: budget, tooLong: tooLarge, context: "header section") else {
                return .needMoreData
            }
            head.headerBytes += line.count + 2
            if line.isEmpty { return try headComplete(head) }
            if head.headers.count >= limits.maxHeaderCount { throw .tooManyHeaders(limit: limits.maxHeaderCount) }
            state = .modifying
            let field = try parseFieldLine(buffer[line])
            head.note(field.name)
            head.headers.add(name: field.name, value: field.value)
            state = .headers(head)
            return .progressed

        case .fixedBody(let head, let length):
            guard buffer.count - readIndex >= length else { return .needMoreData }
            let body = Array(buffer[readIndex..<readIndex + length])
            readIndex += length
            state = .requestLine
            return .request(HTTPRequest(head: head, body: body))

        case .chunkSize, .chunkData, .chunkDataEnd, .trailers:
            return try stepChunked()

        case .failed(let error):
            throw error

        case .modifying:
            // Code that sets `modifying` replaces it before returning, and when it throws, `next()` sets `failed`.
            preconditionFailure("Invalid state: \(state)")
        }
    }

    /// The head is complete: decide the body's framing (RFC 9112 §6.3) and the connection's fate.
    private mutating func headComplete(_ partial: PartialHead) throws(HTTPParseError) -> Step {
        let framing = try bodyFraming(of: partial)
        let head = HTTPRequestHead(
            method: partial.method, target: partial.target, path: partial.path, query: partial.query,
            version: partial.version, headers: partial.headers, keepAlive: Self.keepAlive(partial))
        switch framing {
        case .none:
            state = .requestLine
            return .request(HTTPRequest(head: head))
        case .length(let length):
            state = .fixedBody(head, length: length)
            return .progressed
        case .chunked:
            state = .chunkSize(head, body: [])
            return .progressed
        }
    }

    /// RFC 9112 §9.3: HTTP/1.1 stays open unless `Connection: close`; HTTP/1.0 closes unless `keep-alive`.
    static func keepAlive(_ head: PartialHead) -> Bool {
        if !head.hasConnection { return head.version == .http1_1 }
        if head.headers.containsToken("close", for: "Connection") { return false }
        if head.version == .http1_1 { return true }
        return head.headers.containsToken("keep-alive", for: "Connection")
    }

    /// Finds the next CRLF-terminated line and consumes it, returning its range without the CRLF.
    /// - Throws: `tooLong` as soon as more than `maxLength` bytes (plus a CR) have arrived without an LF;
    ///   `.invalidLineEnding` for an LF without CR or a CR inside the line (RFC 9112 §2.2).
    mutating func nextLine(maxLength: Int, tooLong: HTTPParseError, context: String) throws(HTTPParseError)
        -> Range<Int>?
    {
        let start = readIndex
        let searchFrom = start + scannedBytes
        // memchr over the buffer's memory, and the CR check in the same pointer: every line of every request.
        let found = buffer.withUnsafeBufferPointer { bytes -> (lf: Int, strayCR: Bool)? in
            guard searchFrom < bytes.count, let base = bytes.baseAddress,
                let hit = memchr(base + searchFrom, 0x0A, bytes.count - searchFrom)
            else { return nil }
            let lf = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            var strayCR = false
            if lf - 1 > start {
                strayCR = memchr(base + start, 0x0D, lf - 1 - start) != nil
            }
            return (lf, strayCR)
        }
        guard let (lf, strayCR) = found else {
            scannedBytes = buffer.count - start
            if scannedBytes > maxLength + 1 { throw tooLong }
            return nil
        }
        // Length first, so the verdict does not depend on how the bytes were split across `feed` calls.
        if lf - start > maxLength + 1 { throw tooLong }
        guard lf > start, buffer[lf - 1] == UInt8(ascii: "\r") else { throw .invalidLineEnding(context: context) }
        let line = start..<(lf - 1)
        if strayCR { throw .invalidLineEnding(context: context) }
        readIndex = lf + 1
        scannedBytes = 0
        return line
    }

    enum BodyFraming: Equatable {
        case none
        case length(Int)
        case chunked
    }
}
