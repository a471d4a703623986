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

extension JSONParseError: CustomStringConvertible {
    /// A sentence for an error message sent back to a client.
    public var description: String {
        switch self {
        case .unexpectedEnd(let offset): "the input ends early (byte \(offset))"
        case .unexpectedByte(let byte, let offset): "unexpected byte 0x\(String(byte, radix: 16)) at byte \(offset)"
        case .invalidNumber(let offset): "malformed number at byte \(offset)"
        case .invalidEscape(let offset): "malformed escape at byte \(offset)"
        case .invalidUTF8(let offset): "invalid UTF-8 in the string ending at byte \(offset)"
        case .controlCharacterInString(let offset): "unescaped control character at byte \(offset)"
        case .duplicateKey(let key, let offset): "duplicate member \"\(key)\" at byte \(offset)"
        case .tooDeep(let limit, let offset): "nested deeper than \(limit) levels at byte \(offset)"
        case .trailingBytes(let offset): "unexpected data after the value at byte \(offset)"
        }
    }
}
