/// SHA-1 (FIPS 180-4 §6.1), only for the handshake's `Sec-WebSocket-Accept` (RFC 6455 §4.2.2), where it is a
/// fixed transform rather than a security measure; never use it to protect anything.
public struct SHA1: Sendable {
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
    )
    /// Bytes not yet forming a whole 64-byte block.
    private var pending: [UInt8] = []
    private var totalLength: UInt64 = 0

    public init() {}

    /// The digest of `bytes` in one call.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var sha = SHA1()
        sha.update(bytes)
        return sha.finalize()
    }

    public mutating func update(_ bytes: some Collection<UInt8>) {
        totalLength &+= UInt64(bytes.count)
        pending.append(contentsOf: bytes)
        var start = 0
        while pending.count - start >= 64 {
            compress(pending[start..<(start + 64)])
            start += 64
        }
        pending.removeSubrange(0..<start)
    }

    /// The 20-byte digest; the value must not be updated afterwards.
    public mutating func finalize() -> [UInt8] {
        let bitLength = totalLength &* 8
        // FIPS 180-4 §5.1.1: a 1 bit, zeros to 56 mod 64 bytes, then the 64-bit big-endian message length.
        var padding: [UInt8] = [0x80]
        let afterOne = (pending.count + 1) % 64
        padding.append(contentsOf: repeatElement(0, count: afterOne <= 56 ? 56 - afterOne : 120 - afterOne))
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        pending.append(contentsOf: padding)
        var start = 0
        while start < pending.count {
            compress(pending[start..<(start + 64)])
            start += 64
        }
        pending = []
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [h.0, h.1, h.2, h.3, h.4] {
            digest.append(contentsOf: [
                UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
                UInt8(truncatingIfNeeded: word),
            ])
        }
        return digest
    }

    /// One 64-byte block (FIPS 180-4 §6.1.2).
    private mutating func compress(_ block: ArraySlice<UInt8>) {
        var w = [UInt32](repeating: 0, count: 80)
        var index = block.startIndex
        for t in 0..<16 {
            w[t] =
                UInt32(block[index]) << 24 | UInt32(block[index + 1]) << 16 | UInt32(block[index + 2]) << 8
                | UInt32(block[index + 3])
            index += 4
        }
        for t in 16..<80 {
            w[t] = rotateLeft(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1)
        }
        var (a, b, c, d, e) = h
        for t in 0..<80 {
            let f: UInt32
            let k: UInt32
            switch t {
            case 0..<20:
                f = (b & c) | (~b & d)
                k = 0x5A82_7999
            case 20..<40:
                f = b ^ c ^ d
                k = 0x6ED9_EBA1
            case 40..<60:
                f = (b & c) | (b & d) | (c & d)
                k = 0x8F1B_BCDC
            default:
                f = b ^ c ^ d
                k = 0xCA62_C1D6
            }
            let temp = rotateLeft(a, 5) &+ f &+ e &+ k &+ w[t]
            e = d
            d = c
            c = rotateLeft(b, 30)
            b = a
            a = temp
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }

    private func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }
}
