import CLinux
import Glibc

/// An IPv4 or IPv6 socket address.
public enum SocketAddress: Sendable, Equatable, CustomStringConvertible {
    case v4(host: String, port: Int)
    case v6(host: String, port: Int)

    /// Resolves `host` (a numeric address or a name such as `localhost`) and `port` for a listening TCP socket.
    /// The first address `getaddrinfo` returns wins.
    public static func resolve(host: String, port: Int) throws(NetError) -> SocketAddress {
        guard (0...65535).contains(port) else {
            throw NetError.addressResolution(host: host, port: port, reason: "port out of range")
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &result)
        guard rc == 0, let first = result else {
            throw NetError.addressResolution(host: host, port: port, reason: String(cString: gai_strerror(rc)))
        }
        defer { freeaddrinfo(first) }
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let current = node {
            if let address = SocketAddress(current.pointee.ai_addr) { return address }
            node = current.pointee.ai_next
        }
        throw NetError.addressResolution(host: host, port: port, reason: "no IPv4 or IPv6 address")
    }

    /// Reads a `sockaddr` of family `AF_INET` or `AF_INET6`.
    init?(_ raw: UnsafePointer<sockaddr>?) {
        guard let raw else { return nil }
        switch Int32(raw.pointee.sa_family) {
        case AF_INET:
            let sin = UnsafeRawPointer(raw).assumingMemoryBound(to: sockaddr_in.self).pointee
            var addr = sin.sin_addr
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
            self = .v4(host: Self.string(text), port: Int(UInt16(bigEndian: sin.sin_port)))
        case AF_INET6:
            let sin6 = UnsafeRawPointer(raw).assumingMemoryBound(to: sockaddr_in6.self).pointee
            var addr = sin6.sin6_addr
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count))
            self = .v6(host: Self.string(text), port: Int(UInt16(bigEndian: sin6.sin6_port)))
        default:
            return nil
        }
    }

    private static func string(_ text: [CChar]) -> String {
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    public var host: String {
        switch self {
        case .v4(let host, _), .v6(let host, _): return host
        }
    }

    public var port: Int {
        switch self {
        case .v4(_, let port), .v6(_, let port): return port
        }
    }

    var family: Int32 {
        switch self {
        case .v4: return AF_INET
        case .v6: return AF_INET6
        }
    }

    /// The same address with another port.
    public func withPort(_ port: Int) -> SocketAddress {
        switch self {
        case .v4(let host, _): return .v4(host: host, port: port)
        case .v6(let host, _): return .v6(host: host, port: port)
        }
    }

    /// `host:port`, with brackets around an IPv6 host, as in a URL authority.
    public var description: String {
        switch self {
        case .v4(let host, let port): return "\(host):\(port)"
        case .v6(let host, let port): return "[\(host)]:\(port)"
        }
    }

    /// Calls `body` with the C representation of this address.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch self {
        case .v4(let host, let port):
            var sin = sockaddr_in()
            sin.sin_family = sa_family_t(AF_INET)
            sin.sin_port = UInt16(port).bigEndian
            _ = inet_pton(AF_INET, host, &sin.sin_addr)
            return withUnsafePointer(to: &sin) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6(let host, let port):
            var sin6 = sockaddr_in6()
            sin6.sin6_family = sa_family_t(AF_INET6)
            sin6.sin6_port = UInt16(port).bigEndian
            _ = inet_pton(AF_INET6, host, &sin6.sin6_addr)
            return withUnsafePointer(to: &sin6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }
}
