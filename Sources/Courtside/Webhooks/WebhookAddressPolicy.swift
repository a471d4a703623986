import Foundation

/// Which addresses a webhook may call. A server that calls URLs its administrators type is a way into the network
/// behind it (server-side request forgery), so by default only public unicast addresses are allowed: loopback,
/// private (RFC 1918, RFC 4193), link-local (RFC 3927, RFC 4291), carrier-grade NAT (RFC 6598), unspecified,
/// multicast and broadcast addresses are refused. `--webhook-allow-private` lifts that for a receiver on the same
/// host or network (and the tests).
///
/// The name is resolved once per attempt and the connection goes to the address that was checked, never to a second
/// resolution (which DNS rebinding could point elsewhere).
struct WebhookAddressPolicy: Sendable, Hashable {
    var allowsPrivate: Bool

    /// Why `bytes` (4 or 16) may not be called, or nil when it may.
    func refusal(of bytes: [UInt8]) -> String? {
        if allowsPrivate { return Self.isUnspecifiedOrMulticast(bytes) ? "not a unicast address" : nil }
        return Self.classify(bytes)
    }

    /// The kind of address that is never called without the switch, or nil for a public unicast one.
    static func classify(_ bytes: [UInt8]) -> String? {
        if isUnspecifiedOrMulticast(bytes) { return "not a unicast address" }
        if bytes.count == 4 {
            let (a, b) = (bytes[0], bytes[1])
            switch true {
            case a == 127: return "a loopback address"
            case a == 10, a == 172 && (16...31).contains(b), a == 192 && b == 168: return "a private address"
            case a == 169 && b == 254: return "a link-local address"
            case a == 100 && (64...127).contains(b): return "a shared (carrier-grade NAT) address"
            case a == 0: return "a 'this network' address"
            default: return nil
            }
        }
        guard bytes.count == 16 else { return "not an IP address" }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return "a loopback address" }
        if bytes[0] & 0xFE == 0xFC { return "a private (unique local) address" }
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return "a link-local address" }
        return nil
    }

    private static func isUnspecifiedOrMulticast(_ bytes: [UInt8]) -> Bool {
        if bytes.allSatisfy({ $0 == 0 }) { return true }
        if bytes.count == 4 { return bytes[0] >= 224 }
        return bytes.first == 0xFF
    }

    /// Checks a URL when it is saved, so a receiver that can never be called is refused at once: a numeric address
    /// (or `localhost`) by this policy; a name is checked again at each attempt, on the address it resolves to.
    func check(_ url: WebhookURL) throws(WebhookRequestError) {
        let literal = url.host.lowercased() == "localhost" ? [127, 0, 0, 1] : IPAddressRange.addressBytes(url.host)
        guard let literal, let problem = refusal(of: literal) else { return }
        throw .forbiddenAddress(
            "url: \(url.host) is \(problem); --webhook-allow-private allows private, loopback and link-local receivers")
    }

    /// Resolves `host` (a name or a numeric address) and returns the first address this policy allows, as a
    /// socket address to connect to; throws naming the addresses refused. Blocks on DNS: delivery threads only.
    func resolve(host: String, port: UInt16) throws(WebhookDeliveryError) -> WebhookSocketAddress {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0, let first = list else {
            throw .cannotResolve(host: host, String(cString: gai_strerror(code)))
        }
        defer { freeaddrinfo(first) }
        var refused: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            guard let address = WebhookSocketAddress(current.pointee) else { continue }
            if let problem = refusal(of: address.ipBytes) {
                refused.append("\(address.text) is \(problem)")
                continue
            }
            return address
        }
        throw .forbiddenAddress(
            host: host,
            refused.isEmpty
                ? "no usable address"
                : refused.joined(separator: "; ")
                    + " (--webhook-allow-private allows private, loopback and link-local receivers)")
    }
}

/// One resolved address, kept as the bytes `connect(2)` takes.
struct WebhookSocketAddress: Sendable, Hashable {
    let family: Int32
    let storage: [UInt8]
    /// The IP address's bytes (4 or 16; an IPv4-mapped IPv6 address gives its IPv4 bytes).
    let ipBytes: [UInt8]
    let text: String

    init?(_ info: addrinfo) {
        guard let raw = info.ai_addr else { return nil }
        family = info.ai_family
        storage = Array(UnsafeRawBufferPointer(start: raw, count: Int(info.ai_addrlen)))
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch info.ai_family {
        case AF_INET:
            var address = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            ipBytes = withUnsafeBytes(of: &address) { Array($0) }
            inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        case AF_INET6:
            var address = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            let bytes = withUnsafeBytes(of: &address) { Array($0) }
            // RFC 4291 §2.5.5.2: ::ffff:a.b.c.d is the IPv4 address a.b.c.d, and is judged as one.
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            ipBytes = mapped ? Array(bytes[12..<16]) : bytes
            inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
        default:
            return nil
        }
        text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
