/// An incremental parser of Redis replies (RESP2 and RESP3), written as a value-type state machine that does no
/// I/O. Feed it bytes as they arrive, then call `next()` until it says `.needMoreData`: replies come out in the
/// order the server sent them, which is the order of the commands (pipelining is just calling `next()` again).
///
/// Partial data lives in the state: the aggregates being filled (a stack, innermost last) and, while a bulk payload
/// is awaited, its declared length. Every limit in `RESPParserLimits` is checked when the header that could cross
/// it is read. Decisions are taken only on complete lines and complete payloads (and a line's length before its
/// content), so the result does not depend on how the bytes were split.
///
/// Not handled: RESP3 streamed strings and aggregates (`$?`, `*?`, `;`), which Redis never sends (refused with
/// `.streamedTypeUnsupported`). Attributes (`|`) are parsed and dropped (the protocol lets a client ignore them).
public struct RESPParser: Sendable {
    /// The bounds this parser enforces.
    public let limits: RESPParserLimits

    /// Received bytes not yet consumed start at `readIndex`; consumed ones are dropped in `feed` once they make up
    /// half the buffer, so compaction costs stay linear.
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// How many bytes of the current line were already searched for LF, so that byte-by-byte feeding does not
    /// rescan the line each time.
    private var scannedBytes = 0
    private var state = State.header(Partial())

    private enum State {
        /// Waiting for the next line: a scalar, or the header of a bulk string or an aggregate.
        case header(Partial)
        /// A bulk header was read: waiting for `length` payload bytes and CRLF.
        case bulkPayload(BulkKind, length: Int, Partial)
        /// The stream is broken; further input is dropped.
        case failed(RESPParseError)
        /// Held only while a payload is being mutated, so its arrays stay uniquely referenced.
        case modifying
    }

    /// The reply in progress.
    private struct Partial {
        /// Aggregates being filled, outermost first.
        var stack: [Frame] = []
        /// Wire bytes of this reply consumed so far (checked against `maxReplyBytes`).
        var replyBytes = 0
    }

    private struct Frame {
        var kind: AggregateKind
        /// Elements still to come.
        var remaining: Int
        var elements: [RESPValue]
    }

    private enum AggregateKind {
        case array, set, push, map, attribute
    }

    private enum BulkKind {
        case string, error, verbatim
    }

    private enum Step {
        case value(RESPValue)
        case progressed
        case needMoreData
    }

    /// Buffer capacity kept between replies, so steady traffic does not reallocate; a larger buffer (after a big
    /// reply) is released once drained.
    static let retainedCapacity = 64 * 1024
    /// Elements reserved up front for an aggregate, whatever it declares: a declared count costs nothing until the
    /// elements arrive.
    static let maxReservedElements = 64

    public init(limits: RESPParserLimits = .default) {
        self.limits = limits
    }

    /// Appends received bytes. Nothing is parsed until `next()`.
    public mutating func feed(_ bytes: some Collection<UInt8>) {
        if case .failed = state { return }
        if readIndex > 0 && readIndex == buffer.count && buffer.capacity > Self.retainedCapacity {
            buffer = []
            readIndex = 0
        } else if readIndex > 0 && readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received and not yet part of a returned reply's consumed prefix.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Whether the parser is between replies with nothing buffered.
    public var isIdle: Bool {
        if case .header(let partial) = state {
            return partial.stack.isEmpty && partial.replyBytes == 0 && buffer.count == readIndex
        }
        return false
    }

    /// Parses as far as the buffered bytes allow: one reply, or why there is none.
    public mutating func next() -> RESPParseResult {
        if case .failed(let error) = state { return .failed(error) }
        do throws(RESPParseError) {
            while true {
                switch try step() {
                case .value(let value): return .value(value)
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

    private mutating func step() throws(RESPParseError) -> Step {
        switch state {
        case .header(var partial):
            guard let line = try nextLine() else { return .needMoreData }
            try account(line.count + 2, in: &partial)
            guard let marker = line.first.map({ buffer[$0] }) else { throw .unknownType(UInt8(ascii: "\r")) }
            let body = buffer[(line.lowerBound + 1)..<line.upperBound]
            state = .modifying
            return try header(marker, body, partial)

        case .bulkPayload(let kind, let length, let partial):
            guard buffer.count - readIndex >= length + 2 else { return .needMoreData }
            let end = readIndex + length
            guard buffer[end] == UInt8(ascii: "\r"), buffer[end + 1] == UInt8(ascii: "\n") else {
                throw .missingBulkTerminator
            }
            let payload = Array(buffer[readIndex..<end])
            readIndex = end + 2
            state = .modifying
            switch kind {
            case .string: return complete(.bulkString(payload), partial)
            case .error: return complete(.error(String(decoding: payload, as: UTF8.self)), partial)
            case .verbatim:
                // RESP3: `=<length>\r\n<fmt>:<text>`, the format exactly three bytes.
                guard payload.count >= 4, payload[3] == UInt8(ascii: ":") else { throw .invalidVerbatimString }
                let format = String(decoding: payload[0..<3], as: UTF8.self)
                return complete(.verbatimString(format: format, Array(payload[4...])), partial)
            }

        case .failed(let error):
            throw error

        case .modifying:
            // Every path that sets `modifying` replaces it before returning; a throw makes `next()` set `failed`.
            preconditionFailure("Invalid state: \(state)")
        }
    }

    /// Adds `count` wire bytes to the reply's total, refusing a reply past `maxReplyBytes`.
    private func account(_ count: Int, in partial: inout Partial) throws(RESPParseError) {
        partial.replyBytes += count
        if partial.replyBytes > limits.maxReplyBytes { throw .replyTooLarge(limit: limits.maxReplyBytes) }
    }

    /// One line read in the header state: a scalar completes a value, a bulk header waits for its payload, an
    /// aggregate header pushes a frame.
    private mutating func header(_ marker: UInt8, _ body: ArraySlice<UInt8>, _ partial: Partial) throws(RESPParseError)
        -> Step
    {
        var partial = partial
        switch marker {
        case UInt8(ascii: "+"): return complete(.simpleString(String(decoding: body, as: UTF8.self)), partial)
        case UInt8(ascii: "-"): return complete(.error(String(decoding: body, as: UTF8.self)), partial)
        case UInt8(ascii: ":"): return complete(.integer(try Self.integer(body, type: ":")), partial)
        case UInt8(ascii: "_"):
            guard body.isEmpty else { throw .invalidScalar(type: "_", text: Self.text(body)) }
            return complete(.null, partial)
        case UInt8(ascii: "#"):
            switch Self.text(body) {
            case "t": return complete(.boolean(true), partial)
            case "f": return complete(.boolean(false), partial)
            default: throw .invalidScalar(type: "#", text: Self.text(body))
            }
        case UInt8(ascii: ","): return complete(.double(try Self.double(body)), partial)
        case UInt8(ascii: "("): return complete(.bigNumber(try Self.bigNumber(body)), partial)
        case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "="):
            let length = try length(body, allowsNull: marker == UInt8(ascii: "$"))
            guard let length else { return complete(.null, partial) }
            guard length <= limits.maxBulkBytes else { throw .bulkTooLong(length: length, limit: limits.maxBulkBytes) }
            try account(length + 2, in: &partial)
            let kind: BulkKind =
                marker == UInt8(ascii: "$") ? .string : marker == UInt8(ascii: "!") ? .error : .verbatim
            state = .bulkPayload(kind, length: length, partial)
            return .progressed
        case UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "|"):
            let kind = Self.aggregateKind(marker)
            guard let count = try length(body, allowsNull: kind == .array) else { return complete(.null, partial) }
            let pairs = kind == .map || kind == .attribute
            let (elements, overflow) = count.multipliedReportingOverflow(by: pairs ? 2 : 1)
            guard !overflow, elements <= limits.maxAggregateElements else {
                throw .aggregateTooLarge(count: overflow ? .max : elements, limit: limits.maxAggregateElements)
            }
            guard partial.stack.count < limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth) }
            if elements == 0 {
                if kind == .attribute {
                    state = .header(partial)
                    return .progressed
                }
                return complete(Self.aggregate(kind, []), partial)
            }
            var storage: [RESPValue] = []
            storage.reserveCapacity(min(elements, Self.maxReservedElements))
            partial.stack.append(Frame(kind: kind, remaining: elements, elements: storage))
            state = .header(partial)
            return .progressed
        default:
            throw .unknownType(marker)
        }
    }

    /// Hands a finished value to the innermost aggregate, closing every aggregate it completes; returns the reply
    /// when the outermost one (or a lone scalar) is done.
    private mutating func complete(_ value: RESPValue, _ partial: Partial) -> Step {
        var partial = partial
        var value = value
        while var frame = partial.stack.popLast() {
            frame.elements.append(value)
            frame.remaining -= 1
            if frame.remaining > 0 {
                partial.stack.append(frame)
                state = .header(partial)
                return .progressed
            }
            if frame.kind == .attribute {
                // Dropped: the value it annotates comes next, at the same level.
                state = .header(partial)
                return .progressed
            }
            value = Self.aggregate(frame.kind, frame.elements)
        }
        state = .header(Partial())
        return .value(value)
    }

    private static func aggregateKind(_ marker: UInt8) -> AggregateKind {
        switch marker {
        case UInt8(ascii: "~"): return .set
        case UInt8(ascii: ">"): return .push
        case UInt8(ascii: "%"): return .map
        case UInt8(ascii: "|"): return .attribute
        default: return .array
        }
    }

    private static func aggregate(_ kind: AggregateKind, _ elements: [RESPValue]) -> RESPValue {
        switch kind {
        case .array: return .array(elements)
        case .set: return .set(elements)
        case .push: return .push(elements)
        case .map, .attribute:
            return .map(
                stride(from: 0, to: elements.count, by: 2).map {
                    RESPMapEntry(key: elements[$0], value: elements[$0 + 1])
                })
        }
    }

    /// Finds the next CRLF-terminated line and consumes it, returning its range without the CRLF.
    /// Throws `.lineTooLong` as soon as more than `maxLineBytes` (plus a CR) arrived without LF, and
    /// `.invalidLineEnding` for an LF without CR or a CR inside the line.
    private mutating func nextLine() throws(RESPParseError) -> Range<Int>? {
        let start = readIndex
        let maxLength = limits.maxLineBytes
        guard let lf = buffer[(start + scannedBytes)...].firstIndex(of: UInt8(ascii: "\n")) else {
            scannedBytes = buffer.count - start
            if scannedBytes > maxLength + 1 { throw .lineTooLong(limit: maxLength) }
            return nil
        }
        // Length first, so the verdict does not depend on how the bytes were split across `feed` calls.
        if lf - start > maxLength + 1 { throw .lineTooLong(limit: maxLength) }
        guard lf > start, buffer[lf - 1] == UInt8(ascii: "\r") else { throw .invalidLineEnding }
        let line = start..<(lf - 1)
        if buffer[line].contains(UInt8(ascii: "\r")) { throw .invalidLineEnding }
        readIndex = lf + 1
        scannedBytes = 0
        return line
    }

    /// A length or count: decimal digits, or `-1` (a RESP2 null, returned as nil) where `allowsNull`.
    private func length(_ body: ArraySlice<UInt8>, allowsNull: Bool) throws(RESPParseError) -> Int? {
        if body.elementsEqual("?".utf8) { throw .streamedTypeUnsupported }
        if allowsNull && body.elementsEqual("-1".utf8) { return nil }
        guard !body.isEmpty, body.count <= 18, body.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { throw .invalidLength(Self.text(body)) }
        return body.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// `:` integers: an optional sign and decimal digits that fit 64 bits.
    private static func integer(_ body: ArraySlice<UInt8>, type: Character) throws(RESPParseError) -> Int64 {
        // Int64(String) takes exactly this grammar and refuses overflow, spaces and a lone sign.
        guard let value = Int64(text(body)) else { throw .invalidScalar(type: type, text: text(body)) }
        return value
    }

    /// RESP3 doubles: `[sign]digits[.digits][(e|E)[sign]digits]`, or `inf`, `-inf`, `nan`.
    private static func double(_ body: ArraySlice<UInt8>) throws(RESPParseError) -> Double {
        let text = text(body)
        switch text {
        case "inf", "+inf": return .infinity
        case "-inf": return -.infinity
        case "nan", "-nan": return .nan
        default: break
        }
        let allowed = body.allSatisfy { byte in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-")
        }
        guard allowed, body.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Double(text), value.isFinite
        else { throw .invalidScalar(type: ",", text: text) }
        return value
    }

    /// RESP3 big numbers: an optional minus sign and at least one digit.
    private static func bigNumber(_ body: ArraySlice<UInt8>) throws(RESPParseError) -> String {
        let digits = body.first == UInt8(ascii: "-") ? body.dropFirst() : body
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw .invalidScalar(type: "(", text: text(body))
        }
        return text(body)
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
