import CourtsideHTTP

/// Who a request comes from: the TCP peer, or, when the peer is a trusted reverse proxy, the client that proxy
/// reported in `X-Forwarded-For`. The address the per-address connection cap counts and the logs name.
///
/// `X-Forwarded-For` is a list the client starts and each proxy appends its peer to (`client, proxy1, proxy2`), so
/// only its right end can be believed: everything left of the first entry written by an untrusted party may be
/// forged. The walk therefore goes from the right, past every trusted proxy, and stops at the first address that
/// is not one: that hop is the client. A request from an untrusted peer is never asked about the header at all,
/// otherwise anyone could pick the address they are counted under.
///
/// Not enforced: the `Forwarded` header (RFC 7239) is not read (nginx and Caddy send `X-Forwarded-For`), and a
/// proxy that does not append (but replaces) the header is believed as far as it goes.
public struct ClientAddress: Sendable, Equatable {
    /// The client's address as resolved.
    public let address: String
    /// The TCP peer's address (the proxy, when the request came through one).
    public let peer: String

    /// Whether the address came from `X-Forwarded-For`.
    public var isForwarded: Bool { address != peer }

    /// Resolves the client of a request from `peer` (the kernel's address of the other end of the TCP connection)
    /// and the request's headers. With no trusted proxies this is always the peer.
    public static func resolve(peer: String, headers: HTTPHeaders, trustedProxies: [IPAddressRange]) -> ClientAddress {
        guard isTrusted(peer, trustedProxies) else { return ClientAddress(address: peer, peer: peer) }
        // Several X-Forwarded-For lines are one list in order (RFC 9110 §5.3).
        let hops = headers.values(for: "X-Forwarded-For").flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: " \t")
        }
        var client = peer
        for hop in hops.reversed() {
            // An entry that is not an address (a port, `unknown`, garbage) ends the walk: the trusted hop that
            // wrote it is the last one we can name.
            guard IPAddressRange.addressBytes(hop) != nil else { break }
            client = hop
            if !isTrusted(hop, trustedProxies) { break }
        }
        return ClientAddress(address: client, peer: peer)
    }

    static func isTrusted(_ address: String, _ trustedProxies: [IPAddressRange]) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        return String(self.drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

extension ClientAddress {
    /// The key a per-address rate limit counts this client under: the address itself for IPv4, its /64 for IPv6.
    /// One IPv6 subscriber is given a whole /64 (RFC 6177 recommends at least that per site; most ISPs delegate a
    /// /56 or more), so counting exact addresses would let one client rotate through 2^64 of them.
    var rateKey: String { Self.rateKey(address) }

    static func rateKey(_ address: String) -> String {
        // `addressBytes` gives an IPv4-mapped address (::ffff:a.b.c.d) as its four IPv4 bytes.
        guard let bytes = IPAddressRange.addressBytes(address) else { return address }
        guard bytes.count == 16 else { return bytes.map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }
}
