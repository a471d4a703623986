import Glibc

/// An IPv4 or IPv6 address with a prefix length: `10.0.0.0/8`, `fd00::/8`, or a single address (`127.0.0.1` is
/// `127.0.0.1/32`). What `--trusted-proxies` lists.
///
/// Addresses compare as bytes in network order. An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, what a dual-stack
/// socket reports for an IPv4 peer) is taken as its IPv4 address, so one entry covers both spellings.
public struct IPAddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The network's address bytes (4 or 16), with the bits past the prefix cleared.
    public let network: [UInt8]
    /// Leading bits that must match: 0...32 for IPv4, 0...128 for IPv6.
    public let prefixLength: Int

    /// Parses `address` or `address/prefix`; `nil` when either part is not valid.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.addressBytes(String(parts[0])) else { return nil }
        let maximum = bytes.count * 8
        var prefix = maximum
        if parts.count == 2 {
            // Digits only: `Int("+8")` would accept a sign.
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCIIDigit), let value = Int(parts[1]),
                value <= maximum
            else { return nil }
            prefix = value
        }
        network = Self.masked(bytes, prefixLength: prefix)
        prefixLength = prefix
    }

    /// Whether `address` (a numeric IPv4 or IPv6 address) lies in the range; false for anything unparsable.
    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.addressBytes(address), bytes.count == network.count else { return false }
        return Self.masked(bytes, prefixLength: prefixLength) == network
    }

    public var description: String {
        let family = network.count == 4 ? AF_INET : AF_INET6
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let printed = network.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count)) != nil
        }
        let address =
            printed ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        return "\(address)/\(prefixLength)"
    }

    /// The bytes of a numeric address (4 for IPv4, 16 for IPv6; IPv4-mapped IPv6 gives 4), or `nil`. Names are never
    /// resolved: a proxy is trusted by what the kernel reports, not by what DNS says today.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        // RFC 4291 §2.5.5.2: ::ffff:a.b.c.d is the IPv4 address a.b.c.d.
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return Array(bytes[12..<16])
        }
        return bytes
    }

    private static func masked(_ bytes: [UInt8], prefixLength: Int) -> [UInt8] {
        var result = bytes
        for index in result.indices {
            let bitsKept = min(max(prefixLength - index * 8, 0), 8)
            result[index] &= bitsKept == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - bitsKept))
        }
        return result
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
