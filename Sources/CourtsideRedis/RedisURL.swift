/// Where a Redis server is and how to log in: `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for
/// TLS (the scheme Redis's own clients use; IANA's provisional `redis` scheme). The host may be a name, an IPv4
/// address or a bracketed IPv6 address; the user name and password are percent-decoded (RFC 3986 §2.1), so a
/// password with `@`, `:`, `/` or `,` may be written `%40`, `%3A`, `%2F`, `%2C`.
///
/// The user info runs to the last `@`, and is split off before anything else is read: RFC 3986 §3.2.1 wants a
/// password's `@` and `/` percent-encoded, but people paste passwords as they are, and a host, port or database never
/// holds an `@`, so a raw `/`, `:` or `@` in a password is still read as part of it, never as the host or the path.
/// An error names the part of the URL at fault and never repeats any of its text (it may be a password).
///
/// Not accepted: a query or fragment (no option is read from them, so they would be silently ignored), Unix
/// socket paths, and several hosts (Sentinel or Cluster seeds).
public struct RedisURL: Sendable, Hashable, CustomStringConvertible {
    /// The port when the URL gives none (Redis's default).
    public static let defaultPort = 6379

    /// Whether the connection uses TLS (`rediss://`).
    public var usesTLS: Bool
    public var host: String
    public var port: Int
    /// The ACL user (Redis 6+); nil logs in as `default` when a password is given.
    public var username: String?
    public var password: String?
    /// The logical database (`SELECT`), 0 unless the path names another.
    public var database: Int

    public init(
        host: String, port: Int = RedisURL.defaultPort, username: String? = nil, password: String? = nil,
        database: Int = 0, usesTLS: Bool = false
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.usesTLS = usesTLS
    }

    /// Parses `text`, naming what is wrong when it cannot (never quoting it).
    public init(parsing text: String) throws(RedisURLError) {
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("redis://") {
            usesTLS = false
            rest = text.dropFirst("redis://".count)
        } else if lower.hasPrefix("rediss://") {
            usesTLS = true
            rest = text.dropFirst("rediss://".count)
        } else {
            throw .unsupportedScheme
        }
        let at = rest.lastIndex(of: "@")
        let location = at.map { rest[rest.index(after: $0)...] } ?? rest
        if location.contains("?") || location.contains("#") { throw .unsupportedQueryOrFragment }
        let slash = location.firstIndex(of: "/")
        let hostPort = location[..<(slash ?? location.endIndex)]
        let path = slash.map { location[location.index(after: $0)...] } ?? ""

        username = nil
        password = nil
        if let at {
            let userInfo = rest[..<at]
            // A user name holds no `:` (RFC 3986 §3.2.1), so the first one ends it; the password may hold more.
            if let colon = userInfo.firstIndex(of: ":") {
                let user = try Self.percentDecoded(userInfo[..<colon], field: "user name")
                username = user.isEmpty ? nil : user
                password = try Self.percentDecoded(userInfo[userInfo.index(after: colon)...], field: "password")
            } else {
                // `redis://secret@host`: Redis's own CLI reads a lone user-info as the password.
                password = try Self.percentDecoded(userInfo, field: "password")
            }
        }
        (host, port) = try Self.hostAndPort(hostPort)
        if path.isEmpty {
            database = 0
        } else {
            guard path.allSatisfy(\.isASCII), path.allSatisfy(\.isNumber), let number = Int(path), number <= Int32.max
            else { throw .invalidDatabase }
            database = number
        }
    }

    /// Splits a comma-separated list of URLs (`--redis`'s partitions) where a new URL begins: at a comma followed
    /// by a scheme (`name://`, RFC 3986 §3.1) or by nothing. A comma inside a password is kept in it, unless it is
    /// followed by something like a scheme: such a comma is written `%2C`.
    public static func splitList(_ text: String) -> [Substring] {
        var members: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while let comma = text[index...].firstIndex(of: ",") {
            let next = text.index(after: comma)
            if startsWithScheme(text[next...]) || text[next...].isEmpty || text[next...].hasPrefix(",") {
                members.append(text[start..<comma])
                start = next
            }
            index = next
        }
        members.append(text[start...])
        return members
    }

    /// Whether `text` begins with `scheme://`, the scheme a letter then letters, digits, `+`, `-` or `.`.
    private static func startsWithScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        let scheme = text.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        return text.dropFirst(scheme.count).hasPrefix("://")
    }

    private static func hostAndPort(_ text: Substring) throws(RedisURLError) -> (String, Int) {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .invalidHost }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidHost }
                portText = after.dropFirst()
            }
            guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw .invalidHost
            }
        } else {
            if let colon = text.lastIndex(of: ":") {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            } else {
                host = text
            }
            let allowed = host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
            guard allowed else { throw .invalidHost }
        }
        if host.isEmpty { throw .missingHost }
        var port = defaultPort
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(portText), (1...65535).contains(number)
            else { throw .invalidPort }
            port = number
        }
        return (String(host), port)
    }

    /// RFC 3986 §2.1 percent-decoding; the result must be UTF-8.
    private static func percentDecoded(_ text: Substring, field: String) throws(RedisURLError) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first != utf8.endIndex, utf8.index(after: first) != utf8.endIndex,
                    let high = hexValue(utf8[first]), let low = hexValue(utf8[utf8.index(after: first)])
                else { throw .invalidPercentEncoding(field: field) }
                bytes.append(high << 4 | low)
                index = utf8.index(first, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .invalidPercentEncoding(field: field)
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The URL with the password replaced by `***`: safe for logs and error messages.
    public var description: String {
        var text = usesTLS ? "rediss://" : "redis://"
        if username != nil || password != nil {
            text += username ?? ""
            if password != nil { text += ":***" }
            text += "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        text += ":\(port)/\(database)"
        return text
    }

    /// The commands that make a fresh connection ready: `HELLO 3` (RESP3, with `AUTH` when a password is set and
    /// `SETNAME` when a client name is given), then `SELECT` unless the database is 0. Sent pipelined, each reply
    /// must be a success.
    public func handshake(clientName: String? = nil) -> [RESPCommand] {
        var hello: [RESPArgument] = ["3"]
        if let password {
            hello += ["AUTH", .string(username ?? "default"), .string(password)]
        }
        if let clientName {
            hello += ["SETNAME", .string(clientName)]
        }
        var commands = [RESPCommand("HELLO", hello)]
        if database != 0 {
            commands.append(RESPCommand("SELECT", .integer(database)))
        }
        return commands
    }
}

/// Why a Redis URL was refused: the part at fault, never its text (the URL may carry a password, and a password
/// with a raw `:` or `/` could otherwise be taken for a port or a database and quoted).
public enum RedisURLError: Error, Sendable, Hashable, CustomStringConvertible {
    case unsupportedScheme
    case unsupportedQueryOrFragment
    case missingHost
    case invalidHost
    case invalidPort
    case invalidDatabase
    case invalidPercentEncoding(field: String)

    public var description: String {
        switch self {
        case .unsupportedScheme:
            return "unsupported scheme in the Redis URL: use redis://[user:password@]host:port/db or rediss://"
        case .unsupportedQueryOrFragment: return "a Redis URL takes no query or fragment (nothing would read them)"
        case .missingHost: return "the Redis URL has no host"
        case .invalidHost:
            return "invalid host in the Redis URL (a name, an IPv4 address or a bracketed IPv6 address)"
        case .invalidPort: return "invalid port in the Redis URL (1-65535)"
        case .invalidDatabase: return "invalid database in the Redis URL (a number after the slash)"
        case .invalidPercentEncoding(let field): return "invalid percent-encoding in the Redis URL's \(field)"
        }
    }
}
