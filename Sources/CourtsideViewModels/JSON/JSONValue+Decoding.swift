extension JSONValue {
    /// The default nesting limit: our documents nest four levels deep and commands one, so 64 leaves room for any
    /// honest client while bounding the parser's recursion against hostile input.
    public static let defaultMaxDepth = 64

    /// Parses exactly one JSON value (RFC 8259), with optional surrounding whitespace.
    public init(parsing bytes: some Collection<UInt8>, maxDepth: Int = JSONValue.defaultMaxDepth) throws(JSONParseError)
    {
        var parser = JSONParser(bytes: Array(bytes), maxDepth: maxDepth)
        self = try parser.parseDocument()
    }

    /// Parses exactly one JSON value from text.
    public init(parsing text: String, maxDepth: Int = JSONValue.defaultMaxDepth) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8), maxDepth: maxDepth)
    }
}

/// A recursive-descent parser over a whole message (WebSocket delivers complete messages, so nothing is incremental).
struct JSONParser {
    private let bytes: [UInt8]
    private let maxDepth: Int
    private var index = 0
    private var depth = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw .trailingBytes(offset: index) }
        return value
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let byte: throw .unexpectedByte(byte, offset: index)
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth { throw .tooDeep(limit: maxDepth, offset: index) }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw .unexpectedByte(bytes[index], offset: index) }
            let keyOffset = index
            let key = try parseString()
            try expect(UInt8(ascii: ":"))
            let value = try parseValue()
            guard members.updateValue(value, forKey: key) == nil else { throw .duplicateKey(key, offset: keyOffset) }
            skipWhitespace()
            guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            case let byte: throw .unexpectedByte(byte, offset: index)
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            case let byte: throw .unexpectedByte(byte, offset: index)
            }
        }
    }

    private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        for expected in word.utf8 {
            guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
            guard bytes[index] == expected else { throw .unexpectedByte(bytes[index], offset: index) }
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        // RFC 8259 §6: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else if digitCount() == 0 {
            throw .invalidNumber(offset: start)
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            if digitCount() == 0 { throw .invalidNumber(offset: start) }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            if digitCount() == 0 { throw .invalidNumber(offset: start) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw .invalidNumber(offset: start) }
        return .number(value)
    }

    private mutating func digitCount() -> Int {
        var count = 0
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            index += 1
            count += 1
        }
        return count
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // the opening quote
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalidUTF8(offset: index) }
                return text
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw .controlCharacterInString(offset: index)
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4(start: start)
            if (0xD800..<0xDC00).contains(scalar) {
                // RFC 8259 §7: a character outside the BMP is a surrogate pair of two \u escapes.
                guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { throw .invalidEscape(offset: start) }
                index += 2
                let low = try parseHex4(start: start)
                guard (0xDC00..<0xE000).contains(low) else { throw .invalidEscape(offset: start) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw .invalidEscape(offset: start)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .invalidEscape(offset: start) }
            utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw .invalidEscape(offset: start)
        }
    }

    private mutating func parseHex4(start: Int) throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .unexpectedEnd(offset: bytes.count) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidEscape(offset: start)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        skipWhitespace()
        guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
        guard bytes[index] == byte else { throw .unexpectedByte(bytes[index], offset: index) }
        index += 1
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        // RFC 8259 §2: space, tab, line feed, carriage return.
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }
}
