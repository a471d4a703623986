extension WebSocketFrameDecoder {
    /// Which frames a decoder accepts: masking by role, reserved bits by negotiated extensions, and size.
    public struct Configuration: Sendable, Hashable {
        /// What RFC 6455 §5.1 asks of the mask bit on received frames.
        public enum MaskPolicy: Sendable, Hashable {
            /// A server reading client frames: every frame must be masked.
            case required
            /// A client reading server frames: no frame may be masked.
            case forbidden
        }

        public var maskPolicy: MaskPolicy

        /// Reserved bits the negotiated extensions use; any other reserved bit fails the connection
        /// (RFC 6455 §5.2). Empty until permessage-deflate is negotiated (then `.rsv1`).
        public var allowedReservedBits: WebSocketReservedBits

        /// The largest frame payload accepted, checked as soon as the header is read so no memory is spent on a
        /// frame that will be refused. Default 16 MiB: the Autobahn testsuite's largest single-frame message
        /// (cases 9.1.6 and 9.2.6) is exactly 16 MiB, and the echo server must pass it. A scoreboard client sends
        /// a few hundred bytes, so an application server should lower it.
        public var maxFramePayloadBytes: Int

        public init(
            maskPolicy: MaskPolicy = .required, allowedReservedBits: WebSocketReservedBits = [],
            maxFramePayloadBytes: Int = 16 * 1024 * 1024
        ) {
            precondition(maxFramePayloadBytes >= 125, "a limit below 125 bytes would refuse legal control frames")
            self.maskPolicy = maskPolicy
            self.allowedReservedBits = allowedReservedBits
            self.maxFramePayloadBytes = maxFramePayloadBytes
        }

        /// A server reading client frames.
        public static let server = Configuration(maskPolicy: .required)

        /// A client reading server frames.
        public static let client = Configuration(maskPolicy: .forbidden)
    }
}

/// One step of ``WebSocketFrameDecoder/next()``.
public enum WebSocketFrameDecoderResult: Sendable, Hashable {
    case frame(WebSocketFrame)
    case needMoreData
    case failed(WebSocketProtocolError)
}
