/// The three reserved bits of a frame header (RFC 6455 §5.2), as a set.
///
/// Extensions negotiate the bits they use (RFC 6455 §5.8: permessage-deflate uses RSV1); any other bit set on a
/// received frame fails the connection.
public struct WebSocketReservedBits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0x70
    }

    public static let rsv1 = WebSocketReservedBits(rawValue: 0x40)
    public static let rsv2 = WebSocketReservedBits(rawValue: 0x20)
    public static let rsv3 = WebSocketReservedBits(rawValue: 0x10)
}

/// A frame header as read from the wire (RFC 6455 §5.2), before its payload has arrived.
public struct WebSocketFrameHeader: Sendable, Hashable {
    public var fin: Bool
    public var reservedBits: WebSocketReservedBits
    public var opcode: WebSocketOpcode
    /// The masking key the sender used, or nil for an unmasked frame.
    public var maskingKey: WebSocketMaskingKey?
    /// The payload length announced by the header.
    public var payloadLength: Int

    public init(
        fin: Bool, reservedBits: WebSocketReservedBits = [], opcode: WebSocketOpcode,
        maskingKey: WebSocketMaskingKey? = nil, payloadLength: Int
    ) {
        self.fin = fin
        self.reservedBits = reservedBits
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payloadLength = payloadLength
    }
}

/// A complete frame with its payload already unmasked.
public struct WebSocketFrame: Sendable, Hashable {
    public var fin: Bool
    public var rsv1: Bool
    public var rsv2: Bool
    public var rsv3: Bool
    public var opcode: WebSocketOpcode
    /// The payload, unmasked.
    public var payload: [UInt8]

    public init(
        fin: Bool = true, rsv1: Bool = false, rsv2: Bool = false, rsv3: Bool = false, opcode: WebSocketOpcode,
        payload: [UInt8]
    ) {
        self.fin = fin
        self.rsv1 = rsv1
        self.rsv2 = rsv2
        self.rsv3 = rsv3
        self.opcode = opcode
        self.payload = payload
    }

    /// The reserved bits of this frame as a set.
    public var reservedBits: WebSocketReservedBits {
        var bits: WebSocketReservedBits = []
        if rsv1 { bits.insert(.rsv1) }
        if rsv2 { bits.insert(.rsv2) }
        if rsv3 { bits.insert(.rsv3) }
        return bits
    }
}
