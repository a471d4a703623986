/// One extension offered in `Sec-WebSocket-Extensions` (RFC 6455 §9.1), with its parameters in order:
/// `permessage-deflate; client_max_window_bits; server_max_window_bits=10`.
public struct WebSocketExtensionOffer: Sendable, Hashable {
    /// A parameter; `value` is nil for a bare name, and unquoted when it was sent as a quoted string.
    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var value: String?

        public init(name: String, value: String? = nil) {
            self.name = name
            self.value = value
        }
    }

    /// The extension token, as sent.
    public var name: String
    public var parameters: [Parameter]

    public init(name: String, parameters: [Parameter] = []) {
        self.name = name
        self.parameters = parameters
    }

    /// The first parameter named `name` (compared case-insensitively): `.some(nil)` when present without a value.
    public func parameter(_ name: String) -> String?? {
        parameters.first { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// Parses every value of the header, in order; nil if any value breaks the §9.1 grammar.
    ///
    /// RFC 6455 §9.1: `extension-list = 1#extension`, `extension = token *(";" extension-param)`,
    /// `extension-param = token ["=" (token / quoted-string)]`, and a quoted value must be a token once
    /// unescaped. Commas and semicolons inside a quoted string do not separate anything.
    public static func parse(headerValues: [String]) -> [WebSocketExtensionOffer]? {
        var offers: [WebSocketExtensionOffer] = []
        for value in headerValues {
            var scanner = Scanner(Array(value.utf8))
            while true {
                scanner.skipWhitespace()
                if scanner.atEnd { break }
                if scanner.consume(UInt8(ascii: ",")) { continue }  // empty list elements are allowed (RFC 9110 §5.6.1)
                guard let name = scanner.token() else { return nil }
                var offer = WebSocketExtensionOffer(name: name)
                scanner.skipWhitespace()
                while scanner.consume(UInt8(ascii: ";")) {
                    scanner.skipWhitespace()
                    guard let parameterName = scanner.token() else { return nil }
                    scanner.skipWhitespace()
                    var parameterValue: String?
                    if scanner.consume(UInt8(ascii: "=")) {
                        scanner.skipWhitespace()
                        if scanner.peek == UInt8(ascii: "\"") {
                            guard let unquoted = scanner.quotedString(), isToken(unquoted) else { return nil }
                            parameterValue = unquoted
                        } else {
                            guard let token = scanner.token() else { return nil }
                            parameterValue = token
                        }
                        scanner.skipWhitespace()
                    }
                    offer.parameters.append(Parameter(name: parameterName, value: parameterValue))
                }
                offers.append(offer)
                if scanner.atEnd { break }
                guard scanner.consume(UInt8(ascii: ",")) else { return nil }
            }
        }
        return offers
    }

    /// The offer as a header value, for a response that accepts it.
    public var headerValue: String {
        var result = name
        for parameter in parameters {
            result += "; " + parameter.name
            if let value = parameter.value { result += "=" + value }
        }
        return result
    }
}

/// Whether `string` is an RFC 9110 §5.6.2 token.
func isToken(_ string: String) -> Bool {
    !string.isEmpty && string.utf8.allSatisfy(isTokenByte)
}

/// tchar (RFC 9110 §5.6.2): visible ASCII except delimiters.
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "A")...UInt8(ascii: "Z"):
        return true
    default:
        return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

/// A cursor over a header value.
private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { index == bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    mutating func skipWhitespace() {
        while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    mutating func token() -> String? {
        let start = index
        while let byte = peek, isTokenByte(byte) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// A quoted-string (RFC 9110 §5.6.4) without its quotes and escapes; nil if unterminated.
    mutating func quotedString() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        var result: [UInt8] = []
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: result, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { return nil }
                index += 1
                result.append(escaped)
            default:
                result.append(byte)
            }
        }
        return nil
    }
}
