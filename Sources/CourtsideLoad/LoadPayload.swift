import CourtsideRandom
import CourtsideWebSocket

/// The message every client sends: `size` ASCII bytes (valid UTF-8, so the same bytes serve as text or binary),
/// the first up to 16 of them overwritten with the message's sequence number in hex, so an echo that comes back
/// out of order or from another message is caught.
struct LoadPayload: Sendable {
    let opcode: WebSocketOpcode
    private let template: [UInt8]
    private let stampLength: Int

    init(size: Int, text: Bool) {
        opcode = text ? .text : .binary
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        template = (0..<size).map { alphabet[$0 % alphabet.count] }
        stampLength = min(16, size)
    }

    var size: Int { template.count }

    /// A whole masked frame carrying message `sequence` (RFC 6455 §5.3: every client frame is masked).
    func frame(sequence: Int, maskingKey: WebSocketMaskingKey) -> [UInt8] {
        var bytes = template
        stamp(sequence, into: &bytes)
        return WebSocketFrameEncoder.frame(opcode: opcode, payload: bytes, maskingKey: maskingKey)
    }

    /// Whether `message` is exactly the payload of message `sequence`.
    func matches(_ message: [UInt8], sequence: Int) -> Bool {
        guard message.count == template.count else { return false }
        var expected = [UInt8](repeating: 0, count: stampLength)
        stamp(sequence, into: &expected)
        return message[..<stampLength].elementsEqual(expected) && message[stampLength...] == template[stampLength...]
    }

    /// Writes the low `stampLength` hex digits of `sequence` into the first bytes of `bytes`.
    private func stamp(_ sequence: Int, into bytes: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        var value = UInt64(sequence)
        for index in stride(from: stampLength - 1, through: 0, by: -1) {
            bytes[index] = digits[Int(value & 0xF)]
            value >>= 4
        }
    }
}

/// Masking keys (and handshake keys) from SplitMix64. RFC 6455 §5.3 wants keys an attacker cannot predict,
/// which guards against cache poisoning by a hostile page through a proxy; a load generator talking to our own
/// loopback server has no such attacker, and a system random call per frame would be measured instead of the
/// server.
struct MaskingKeySource: RandomNumberGenerator, Sendable {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func next() -> UInt64 {
        random.next()
    }

    mutating func next() -> WebSocketMaskingKey {
        WebSocketMaskingKey.random(using: &self)
    }
}
