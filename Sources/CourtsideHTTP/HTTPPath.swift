/// Why a request path could not be decoded.
public enum HTTPPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `%` not followed by two hex digits.
    case invalidEscape
    /// `%2F`: a decoded slash would let one segment act as two, so the path is refused rather than guessed at.
    case encodedSlash
    /// `%00`: a NUL cuts a path short in every C API below us.
    case encodedNUL
    /// The decoded bytes are not UTF-8.
    case invalidUTF8

    public var description: String {
        switch self {
        case .invalidEscape: "bad percent escape"
        case .encodedSlash: "encoded slash (%2F)"
        case .encodedNUL: "encoded NUL (%00)"
        case .invalidUTF8: "decodes to invalid UTF-8"
        }
    }
}

/// Request path helpers: decoding (RFC 3986 §2.1) and dot-segment detection (RFC 3986 §3.3).
public enum HTTPPath {
    /// Percent-decodes a path, refusing encoded slashes and NULs, bad escapes and invalid UTF-8.
    /// `+` stays `+`: form encoding applies to queries only.
    public static func decode(_ encoded: some StringProtocol) throws(HTTPPathError) -> String {
        // Most paths have no escape: then the text is the path, without an intermediate byte array.
        guard encoded.utf8.contains(UInt8(ascii: "%")) else { return String(encoded) }
        let bytes = Array(encoded.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: "%") {
                decoded.append(byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else { throw .invalidEscape }
            let value = high << 4 | low
            if value == UInt8(ascii: "/") { throw .encodedSlash }
            if value == 0 { throw .encodedNUL }
            decoded.append(value)
            index += 3
        }
        guard let string = String(validating: decoded, as: UTF8.self) else { throw .invalidUTF8 }
        return string
    }

    /// The path's segments between slashes, empty ones included (`/a//b/` → `["a", "", "b", ""]`).
    public static func segments(_ path: String) -> [Substring] {
        var rest = Substring(path)
        if rest.hasPrefix("/") { rest = rest.dropFirst() }
        return rest.split(separator: "/", omittingEmptySubsequences: false)
    }

    /// Whether a decoded path has a `.` or `..` segment. Such paths are never normalised here: whoever maps
    /// paths to files must refuse them (`%2e%2e` decodes to `..`, so check after decoding).
    public static func hasDotSegment(_ path: String) -> Bool {
        segments(path).contains { $0 == "." || $0 == ".." }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// One `name=value` pair of a query string, decoded as HTML forms encode them (`+` is a space).
public struct HTTPQueryItem: Sendable, Hashable {
    public var name: String
    /// `""` for `name=` and for a bare `name`.
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Splits on `&`, then on the first `=`. Lenient, as browsers are: a bad escape stays literal and invalid
    /// UTF-8 becomes U+FFFD, because a query is data for the application, never a file name.
    public static func parse(_ query: String) -> [HTTPQueryItem] {
        query.split(separator: "&").map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return HTTPQueryItem(
                    name: decodeComponent(pair[..<equals]), value: decodeComponent(pair[pair.index(after: equals)...]))
            }
            return HTTPQueryItem(name: decodeComponent(pair), value: "")
        }
    }

    static func decodeComponent(_ component: Substring) -> String {
        let bytes = Array(component.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                decoded.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = HTTPPath.hexValue(bytes[index + 1]), let low = HTTPPath.hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}

extension HTTPPath {
    /// Percent-encodes one path segment: everything but unreserved characters, sub-delims, `:` and `@`
    /// (RFC 3986 §3.3 pchar), so a segment can never contain `/`, `?` or `#`.
    public static func encodeSegment(_ segment: some StringProtocol) -> String {
        var out: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
                UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
                out.append(byte)
            default:
                out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
