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
        // A handshake hashes two strings of 24 and 36 bytes: their UTF-8 views are contiguous, so nothing is copied
        // but the tail of a block.
        if bytes.withContiguousStorageIfAvailable({ absorb($0) }) == nil {
            Array(bytes).withUnsafeBufferPointer { absorb($0) }
        }
    }

    /// Compresses every whole block of `pending` + `bytes`, keeping the remainder (under 64 bytes) in `pending`.
    private mutating func absorb(_ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBufferPointer { compress($0.baseAddress!) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 64 {
            compress(bytes.baseAddress! + offset)
            offset += 64
        }
        if offset < bytes.count { pending.append(contentsOf: bytes[offset...]) }
    }

    /// The 20-byte digest; the value must not be updated afterwards.
    public mutating func finalize() -> [UInt8] {
        let bitLength = totalLength &* 8
        // FIPS 180-4 §5.1.1: a 1 bit, zeros to 56 mod 64 bytes, then the 64-bit big-endian message length; one or
        // two blocks, built on the stack.
        let blocks = pending.count + 9 <= 64 ? 1 : 2
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
            tail.initialize(repeating: 0)
            _ = pending.withUnsafeBufferPointer { tail.initialize(fromContentsOf: $0) }
            tail[pending.count] = 0x80
            let end = blocks * 64
            for index in 0..<8 { tail[end - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * index)) }
            for block in 0..<blocks { compress(UnsafePointer(tail.baseAddress! + 64 * block)) }
        }
        pending = []
        let words = [h.0, h.1, h.2, h.3, h.4]
        return [UInt8](unsafeUninitializedCapacity: 20) { digest, count in
            for (index, word) in words.enumerated() {
                digest[4 * index] = UInt8(word >> 24)
                digest[4 * index + 1] = UInt8(truncatingIfNeeded: word >> 16)
                digest[4 * index + 2] = UInt8(truncatingIfNeeded: word >> 8)
                digest[4 * index + 3] = UInt8(truncatingIfNeeded: word)
            }
            count = 20
        }
    }

    /// One 64-byte block (FIPS 180-4 §6.1.2); the message schedule lives on the stack.
    private mutating func compress(_ block: UnsafePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for t in 0..<16 {
                w[t] =
                    UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16 | UInt32(block[4 * t + 2]) << 8
                    | UInt32(block[4 * t + 3])
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
    }

    private func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }
}
