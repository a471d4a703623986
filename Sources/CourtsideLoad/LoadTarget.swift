import Glibc

/// Where the load goes: a `ws://` URL whose host is a loopback address, resolved to a socket address.
///
/// Only loopback is accepted (127.0.0.0/8, `localhost`, `[::1]`): this workplace forbids load against any other
/// address, so the refusal is in the parser rather than left to whoever types the command.
struct LoadTarget: Sendable, Hashable {
    enum Address: Sendable, Hashable {
        /// IPv4 address in host byte order.
        case ipv4(UInt32)
        case ipv6Loopback
    }

    var address: Address
    var port: UInt16
    /// The request-target sent in the handshake (path and query), never empty.
    var path: String
    /// The `Host` header value.
    var hostHeader: String

    /// Parses `ws://HOST[:PORT][/PATH]`. `wss://` is refused: the modes that call this speak plain TCP only.
    static func parse(_ url: String) -> Result<LoadTarget, LoadOptionsError> {
        guard url.hasPrefix("ws://") else {
            if url.hasPrefix("wss://") {
                return .failure(.invalidURL(url, "wss:// is not supported by this mode; use a ws:// listener"))
            }
            return .failure(.invalidURL(url, "must start with ws://"))
        }
        return parse(url, rest: url.dropFirst("ws://".count), defaultPort: 80)
    }

    /// Parses `ws://` or `wss://HOST[:PORT][/PATH]` for the modes whose clients speak TLS; `tls` says which
    /// scheme it was. A `wss://` URL without a port means 443 (RFC 6455 §3).
    static func parseAllowingTLS(_ url: String) -> Result<(target: LoadTarget, tls: Bool), LoadOptionsError> {
        guard url.hasPrefix("wss://") else { return parse(url).map { ($0, false) } }
        return parse(url, rest: url.dropFirst("wss://".count), defaultPort: 443).map { ($0, true) }
    }

    private static func parse(
        _ url: String, rest: Substring, defaultPort: UInt16
    ) -> Result<LoadTarget, LoadOptionsError> {
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        var path = String(rest.dropFirst(authority.count))
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }

        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                return .failure(.invalidURL(url, "unterminated [IPv6] host"))
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(.invalidURL(url, "junk after [IPv6] host")) }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        var port = defaultPort
        if let portText {
            guard let value = UInt16(portText), value > 0 else {
                return .failure(.invalidURL(url, "port must be 1...65535"))
            }
            port = value
        }
        guard let address = loopbackAddress(String(host)) else {
            return .failure(.notLoopback(String(host)))
        }
        let hostHeader = authority.isEmpty ? "localhost" : String(authority)
        return .success(LoadTarget(address: address, port: port, path: path, hostHeader: hostHeader))
    }

    /// The address for a loopback host name or literal; nil for anything else (no DNS is consulted).
    static func loopbackAddress(_ host: String) -> Address? {
        switch host.lowercased() {
        case "localhost": return .ipv4(0x7F00_0001)
        case "::1", "0:0:0:0:0:0:0:1": return .ipv6Loopback
        default: break
        }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let octet = UInt8(part) else {
                return nil
            }
            value = value << 8 | UInt32(octet)
        }
        // 127.0.0.0/8 is the IPv4 loopback network (RFC 1122 §3.2.1.3).
        return value >> 24 == 127 ? .ipv4(value) : nil
    }

    /// Calls `body` with this target as a `sockaddr` and its length.
    func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch address {
        case .ipv4(let value):
            var storage = sockaddr_in()
            storage.sin_family = sa_family_t(AF_INET)
            storage.sin_port = port.bigEndian
            storage.sin_addr = in_addr(s_addr: value.bigEndian)
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .ipv6Loopback:
            var storage = sockaddr_in6()
            storage.sin6_family = sa_family_t(AF_INET6)
            storage.sin6_port = port.bigEndian
            storage.sin6_addr = in6addr_loopback
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    var family: Int32 {
        switch address {
        case .ipv4: return AF_INET
        case .ipv6Loopback: return AF_INET6
        }
    }
}
