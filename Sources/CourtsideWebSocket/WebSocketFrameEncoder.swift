/// Builds frames for the wire (RFC 6455 §5.2): whole frames as one `[UInt8]`, or a header alone so a payload
/// shared by many connections goes out by `writev` without being copied.
///
/// Always uses the minimal length encoding (RFC 6455 §5.2). Servers never mask (RFC 6455 §5.1); clients pass a
/// fresh masking key per frame.
public enum WebSocketFrameEncoder {
    /// The largest header: 2 bytes, an 8-byte length and a 4-byte masking key.
    public static let maxHeaderLength = 14

    /// The header for a frame of `payloadLength` bytes. Unmasked: a masked payload differs per frame and so
    /// cannot be shared, which is the point of sending a header alone.
    public static func header(
        opcode: WebSocketOpcode, payloadLength: Int, fin: Bool = true, reservedBits: WebSocketReservedBits = []
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10)
        appendHeader(
            to: &bytes, opcode: opcode, payloadLength: payloadLength, fin: fin, reservedBits: reservedBits,
            maskingKey: nil)
        return bytes
    }

    /// A whole frame: header and payload, masked when `maskingKey` is given.
    public static func frame(
        opcode: WebSocketOpcode, payload: some Collection<UInt8>, fin: Bool = true,
        reservedBits: WebSocketReservedBits = [], maskingKey: WebSocketMaskingKey? = nil
    ) -> [UInt8] {
        let length = payload.count
        var bytes: [UInt8] = []
        bytes.reserveCapacity(maxHeaderLength + length)
        appendHeader(
            to: &bytes, opcode: opcode, payloadLength: length, fin: fin, reservedBits: reservedBits,
            maskingKey: maskingKey)
        let payloadStart = bytes.count
        bytes.append(contentsOf: payload)
        if let maskingKey {
            maskingKey.apply(to: &bytes, range: payloadStart..<bytes.count)
        }
        return bytes
    }

    /// A whole frame from a ``WebSocketFrame`` value.
    public static func frame(_ frame: WebSocketFrame, maskingKey: WebSocketMaskingKey? = nil) -> [UInt8] {
        self.frame(
            opcode: frame.opcode, payload: frame.payload, fin: frame.fin, reservedBits: frame.reservedBits,
            maskingKey: maskingKey)
    }

    /// A single-frame text message.
    public static func text(_ string: String, maskingKey: WebSocketMaskingKey? = nil) -> [UInt8] {
        frame(opcode: .text, payload: string.utf8, maskingKey: maskingKey)
    }

    /// A single-frame binary message.
    public static func binary(_ bytes: some Collection<UInt8>, maskingKey: WebSocketMaskingKey? = nil) -> [UInt8] {
        frame(opcode: .binary, payload: bytes, maskingKey: maskingKey)
    }

    /// A single-frame message of either kind.
    public static func message(_ message: WebSocketMessage, maskingKey: WebSocketMaskingKey? = nil) -> [UInt8] {
        switch message {
        case .text(let string): return text(string, maskingKey: maskingKey)
        case .binary(let bytes): return binary(bytes, maskingKey: maskingKey)
        }
    }

    /// A ping; the payload is cut to the 125 bytes a control frame may carry (RFC 6455 §5.5).
    public static func ping(_ payload: some Collection<UInt8> = [], maskingKey: WebSocketMaskingKey? = nil)
        -> [UInt8]
    {
        frame(opcode: .ping, payload: payload.prefix(125), maskingKey: maskingKey)
    }

    /// A pong; the payload is cut to the 125 bytes a control frame may carry (RFC 6455 §5.5).
    public static func pong(_ payload: some Collection<UInt8> = [], maskingKey: WebSocketMaskingKey? = nil)
        -> [UInt8]
    {
        frame(opcode: .pong, payload: payload.prefix(125), maskingKey: maskingKey)
    }

    /// A close frame: no body when `code` is nil, else the 2-byte code and the reason, cut at a character
    /// boundary to the 123 bytes left in a control frame (RFC 6455 §5.5.1).
    public static func close(
        code: WebSocketCloseCode?, reason: String = "", maskingKey: WebSocketMaskingKey? = nil
    ) -> [UInt8] {
        frame(opcode: .close, payload: closePayload(code: code, reason: reason), maskingKey: maskingKey)
    }

    /// The body of a close frame (RFC 6455 §5.5.1).
    public static func closePayload(code: WebSocketCloseCode?, reason: String) -> [UInt8] {
        guard let code else { return [] }
        var payload: [UInt8] = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        payload.append(contentsOf: truncatedUTF8(reason, maxBytes: 123))
        return payload
    }

    /// The UTF-8 of `string`, cut to at most `maxBytes` without splitting a character.
    static func truncatedUTF8(_ string: String, maxBytes: Int) -> [UInt8] {
        let utf8 = Array(string.utf8)
        guard utf8.count > maxBytes else { return utf8 }
        var end = maxBytes
        // Back up over continuation bytes (10xxxxxx) so the cut falls before a character's first byte.
        while end > 0 && utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(utf8[..<end])
    }

    private static func appendHeader(
        to bytes: inout [UInt8], opcode: WebSocketOpcode, payloadLength: Int, fin: Bool,
        reservedBits: WebSocketReservedBits, maskingKey: WebSocketMaskingKey?
    ) {
        precondition(payloadLength >= 0, "negative payload length")
        bytes.append((fin ? 0x80 : 0) | reservedBits.rawValue | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch payloadLength {
        case 0...125:
            bytes.append(maskBit | UInt8(payloadLength))
        case 126...0xFFFF:
            bytes.append(maskBit | 126)
            bytes.append(UInt8(payloadLength >> 8))
            bytes.append(UInt8(payloadLength & 0xFF))
        default:
            bytes.append(maskBit | 127)
            let length = UInt64(payloadLength)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
            }
        }
        if let key = maskingKey {
            bytes.append(key.bytes.0)
            bytes.append(key.bytes.1)
            bytes.append(key.bytes.2)
            bytes.append(key.bytes.3)
        }
    }
}
