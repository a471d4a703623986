/// Why `RESPParser` gave up on the byte stream. After any of these the connection is out of step with the server
/// (the framing of what follows is unknown) and must be closed; a Redis error reply is not one of these (it is a
/// `RESPValue.error`).
public enum RESPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The first byte of a value is not a RESP2 or RESP3 type marker.
    case unknownType(UInt8)
    /// A line is longer than `maxLineBytes`.
    case lineTooLong(limit: Int)
    /// A line ended with LF alone, or a CR appeared inside a line (RESP terminates every line with CRLF).
    case invalidLineEnding
    /// A bulk string declared more than `maxBulkBytes`.
    case bulkTooLong(length: Int, limit: Int)
    /// An aggregate declared more than `maxAggregateElements` elements.
    case aggregateTooLarge(count: Int, limit: Int)
    /// Aggregates nest deeper than `maxDepth`.
    case tooDeep(limit: Int)
    /// One reply spans more than `maxReplyBytes`.
    case replyTooLarge(limit: Int)
    /// A length or count is not a decimal number, or is negative (other than the RESP2 null `-1`).
    case invalidLength(String)
    /// A bulk payload is not followed by CRLF.
    case missingBulkTerminator
    /// A number, double, boolean, null or big number line is malformed: `type` is its marker.
    case invalidScalar(type: Character, text: String)
    /// A verbatim string shorter than its `fmt:` prefix, or without the colon.
    case invalidVerbatimString
    /// A RESP3 streamed string or aggregate (`$?`, `*?`): Redis never sends them, so they are refused.
    case streamedTypeUnsupported

    public var description: String {
        switch self {
        case .unknownType(let byte): return "unknown RESP type byte 0x\(String(byte, radix: 16))"
        case .lineTooLong(let limit): return "RESP line longer than \(limit) bytes"
        case .invalidLineEnding: return "RESP line not terminated by CRLF"
        case .bulkTooLong(let length, let limit): return "RESP bulk string of \(length) bytes exceeds \(limit)"
        case .aggregateTooLarge(let count, let limit): return "RESP aggregate of \(count) elements exceeds \(limit)"
        case .tooDeep(let limit): return "RESP aggregates nested deeper than \(limit)"
        case .replyTooLarge(let limit): return "RESP reply larger than \(limit) bytes"
        case .invalidLength(let text): return "invalid RESP length \(text.debugDescription)"
        case .missingBulkTerminator: return "RESP bulk string not followed by CRLF"
        case .invalidScalar(let type, let text): return "invalid RESP \(type) value \(text.debugDescription)"
        case .invalidVerbatimString: return "RESP verbatim string without a format prefix"
        case .streamedTypeUnsupported: return "RESP3 streamed strings and aggregates are not supported"
        }
    }
}

/// What `RESPParser.next()` found.
public enum RESPParseResult: Sendable, Hashable {
    /// A complete reply.
    case value(RESPValue)
    /// The buffered bytes end inside a reply (or there are none): feed more.
    case needMoreData
    /// The stream is broken; the parser stays failed and drops further input.
    case failed(RESPParseError)
}
