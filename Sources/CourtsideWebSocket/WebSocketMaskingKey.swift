/// The 32-bit masking key of a client frame (RFC 6455 §5.3).
public struct WebSocketMaskingKey: Sendable, Hashable, CustomStringConvertible {
    public var bytes: (UInt8, UInt8, UInt8, UInt8)

    public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        bytes = (b0, b1, b2, b3)
    }

    /// A key from the generator. RFC 6455 §5.3 asks clients for keys an attacker cannot predict, so production
    /// clients pass `SystemRandomNumberGenerator`; tests pass a seeded one.
    public static func random(using generator: inout some RandomNumberGenerator) -> WebSocketMaskingKey {
        let value = UInt32.random(in: .min ... .max, using: &generator)
        return WebSocketMaskingKey(
            UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24))
    }

    public subscript(index: Int) -> UInt8 {
        switch index & 3 {
        case 0: return bytes.0
        case 1: return bytes.1
        case 2: return bytes.2
        default: return bytes.3
        }
    }

    public static func == (lhs: WebSocketMaskingKey, rhs: WebSocketMaskingKey) -> Bool {
        lhs.bytes == rhs.bytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.0)
        hasher.combine(bytes.1)
        hasher.combine(bytes.2)
        hasher.combine(bytes.3)
    }

    public var description: String {
        "WebSocketMaskingKey(\(bytes.0), \(bytes.1), \(bytes.2), \(bytes.3))"
    }

    /// XORs `buffer` with the key in place, as if the buffer started `offset` bytes into the payload.
    ///
    /// Masking and unmasking are the same operation (RFC 6455 §5.3). Works a 64-bit word at a time: the key is
    /// rotated to the offset and repeated twice into one word, so a 16 MiB payload costs 2 Mi XORs, not 16 Mi.
    public func apply(to buffer: UnsafeMutableRawBufferPointer, offset: Int = 0) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let count = buffer.count
        var index = 0
        // Key bytes in payload order starting at `offset`, laid out in memory order for the word loop.
        let rotated = (self[offset], self[offset + 1], self[offset + 2], self[offset + 3])
        let word32 = withUnsafeBytes(of: rotated) { $0.loadUnaligned(as: UInt32.self) }
        let word64 = UInt64(word32) | (UInt64(word32) << 32)
        while index + 8 <= count {
            let pointer = base + index
            let value = pointer.loadUnaligned(as: UInt64.self)
            pointer.storeBytes(of: value ^ word64, as: UInt64.self)
            index += 8
        }
        while index < count {
            let pointer = base + index
            pointer.storeBytes(of: pointer.load(as: UInt8.self) ^ self[offset + index], as: UInt8.self)
            index += 1
        }
    }

    /// XORs the bytes of `array` in `range` with the key, as if `range.lowerBound` were `offset` bytes into the
    /// payload.
    public func apply(to array: inout [UInt8], range: Range<Int>, offset: Int = 0) {
        array.withUnsafeMutableBytes { raw in
            apply(to: UnsafeMutableRawBufferPointer(rebasing: raw[range]), offset: offset)
        }
    }
}
