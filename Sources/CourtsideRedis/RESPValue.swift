/// One reply from a Redis server, in the types of RESP3 (the Redis serialization protocol, version 3; RESP2 is
/// its subset). See https://redis.io/docs/latest/develop/reference/protocol-spec/.
///
/// RESP2's null bulk string (`$-1`) and null array (`*-1`) and RESP3's null (`_`) all become `.null`: a client
/// never needs to tell them apart. An error reply is a value, not a parse failure: the stream stays in step after
/// it. Attributes (RESP3 `|`) are read and dropped by the parser; they never appear here.
public enum RESPValue: Sendable, Hashable {
    /// `+OK`: a short status line (no CR or LF inside).
    case simpleString(String)
    /// `-ERR message` (simple error) or `!<length>` (bulk error): the server refused the command.
    case error(String)
    /// `:42`.
    case integer(Int64)
    /// `$<length>`: binary-safe bytes.
    case bulkString([UInt8])
    /// `=<length>` with a three-letter format (`txt`, `mkd`) before a colon.
    case verbatimString(format: String, [UInt8])
    /// `,3.14`, `,inf`, `,-inf`, `,nan` (RESP3).
    case double(Double)
    /// `#t` or `#f` (RESP3).
    case boolean(Bool)
    /// `(3492890328409238509324850943850943825024385`: an integer beyond 64 bits, kept as its digits (RESP3).
    case bigNumber(String)
    /// `$-1`, `*-1` (RESP2) or `_` (RESP3).
    case null
    /// `*<count>`.
    case array([RESPValue])
    /// `~<count>` (RESP3): unordered, but kept in wire order.
    case set([RESPValue])
    /// `%<count>` (RESP3): key/value pairs in wire order.
    case map([RESPMapEntry])
    /// `><count>` (RESP3): an out-of-band message (pub/sub, client tracking), not the reply to a command.
    case push([RESPValue])
}

/// One key/value pair of a RESP3 map.
public struct RESPMapEntry: Sendable, Hashable {
    public var key: RESPValue
    public var value: RESPValue

    public init(key: RESPValue, value: RESPValue) {
        self.key = key
        self.value = value
    }
}

extension RESPValue {
    /// The text of a simple string, a bulk string or a verbatim string (bytes decoded as UTF-8, invalid sequences
    /// replaced); nil for anything else.
    public var string: String? {
        switch self {
        case .simpleString(let text): return text
        case .bulkString(let bytes), .verbatimString(_, let bytes): return String(decoding: bytes, as: UTF8.self)
        default: return nil
        }
    }

    /// The bytes of a bulk or verbatim string (or a simple string's UTF-8); nil for anything else.
    public var bytes: [UInt8]? {
        switch self {
        case .simpleString(let text): return Array(text.utf8)
        case .bulkString(let bytes), .verbatimString(_, let bytes): return bytes
        default: return nil
        }
    }

    /// An integer reply, or a string reply that holds a decimal integer (Redis answers some counts as strings).
    public var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .simpleString, .bulkString: return string.flatMap { Int64($0) }
        default: return nil
        }
    }

    /// The elements of an array, a set or a push message; nil for anything else.
    public var elements: [RESPValue]? {
        switch self {
        case .array(let elements), .set(let elements), .push(let elements): return elements
        default: return nil
        }
    }

    /// The message of an error reply, nil when the value is not an error.
    public var errorMessage: String? {
        if case .error(let message) = self { return message }
        return nil
    }

    public var isNull: Bool { self == .null }
}
