/// Why bytes are not one JSON value (RFC 8259), with the byte offset where parsing stopped.
public enum JSONParseError: Error, Equatable, Sendable {
    /// The input ended inside a value.
    case unexpectedEnd(offset: Int)
    /// A byte that cannot start or continue a value here.
    case unexpectedByte(UInt8, offset: Int)
    /// A malformed number (leading zero, missing digits, out of `Double` range).
    case invalidNumber(offset: Int)
    /// A malformed escape or a lone UTF-16 surrogate in a string.
    case invalidEscape(offset: Int)
    /// Bytes that are not UTF-8 inside a string.
    case invalidUTF8(offset: Int)
    /// A raw control character inside a string (RFC 8259 §7 requires escaping them).
    case controlCharacterInString(offset: Int)
    /// An object with the same key twice (RFC 8259 §4 leaves it undefined; we refuse rather than guess).
    case duplicateKey(String, offset: Int)
    /// Arrays and objects nested deeper than the limit.
    case tooDeep(limit: Int, offset: Int)
    /// Something other than whitespace after the value.
    case trailingBytes(offset: Int)
}
