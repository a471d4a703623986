/// One argument of a command: bytes on the wire, whatever Swift type they came from.
public enum RESPArgument: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case bytes([UInt8])
    case string(String)
    case integer(Int)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }

    /// Appends the argument as a RESP bulk string.
    func encode(into output: inout [UInt8]) {
        switch self {
        case .bytes(let bytes): RESPEncoding.appendBulk(bytes, to: &output)
        case .string(let text): RESPEncoding.appendBulk(text.utf8, to: &output)
        case .integer(let value): RESPEncoding.appendBulk(String(value).utf8, to: &output)
        }
    }
}

/// A command, encoded once as a RESP array of bulk strings (the only form a Redis server accepts from clients
/// besides the inline protocol): `*<n>\r\n` then `$<len>\r\n<bytes>\r\n` per argument. Arguments are binary-safe:
/// no quoting, nothing is interpreted, so data can never become syntax.
///
/// The bytes are built in `init` and never again; a pipeline writes several commands' bytes back to back.
public struct RESPCommand: Sendable, Hashable, CustomStringConvertible {
    /// The command on the wire.
    public let bytes: [UInt8]
    /// The command name (its first argument), upper-cased, for errors and logs: never the arguments, which may be
    /// passwords or data.
    public let name: String

    /// `name` followed by `arguments`.
    public init(_ name: String, _ arguments: [RESPArgument] = []) {
        var output: [UInt8] = []
        output.reserveCapacity(16 + name.utf8.count + arguments.count * 16)
        RESPEncoding.appendHeader(UInt8(ascii: "*"), arguments.count + 1, to: &output)
        RESPEncoding.appendBulk(name.utf8, to: &output)
        for argument in arguments {
            argument.encode(into: &output)
        }
        self.bytes = output
        self.name = name.uppercased()
    }

    /// `name` followed by `arguments`, written inline: `RESPCommand("SET", "key", 5)`.
    public init(_ name: String, _ arguments: RESPArgument...) {
        self.init(name, arguments)
    }

    public var description: String { name }
}

/// The shared byte writers of the encoders.
enum RESPEncoding {
    static func appendHeader(_ marker: UInt8, _ count: Int, to output: inout [UInt8]) {
        output.append(marker)
        output.append(contentsOf: String(count).utf8)
        output.append(contentsOf: crlf)
    }

    static func appendBulk(_ bytes: some Collection<UInt8>, marker: UInt8 = UInt8(ascii: "$"), to output: inout [UInt8])
    {
        appendHeader(marker, bytes.count, to: &output)
        output.append(contentsOf: bytes)
        output.append(contentsOf: crlf)
    }

    static let crlf: [UInt8] = [0x0D, 0x0A]
}
