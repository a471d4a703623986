import CourtsideWebSocket
import CourtsideWebSocketDeflate

/// What a load client reads from its server, as one value the fan-out subscriber and the tap-to-screen spectator
/// share: the 101 response (checked, with permessage-deflate when offered), then frames reassembled into messages
/// and inflated when compressed (RFC 7692 §6.1), pings and the close. It never writes: the owner answers pings
/// and closes. Partial data lives only in the decoder, the response head and the fragments.
struct ClientMessageReader {
    enum Step {
        case needMoreData
        /// The handshake completed; `leftoverBytes` of the bytes fed after the head were frames.
        case upgraded(deflate: Bool, leftoverBytes: Int)
        /// A whole text or binary message, inflated; `compressed` when it came with RSV1.
        case message([UInt8], compressed: Bool)
        case ping([UInt8])
        /// The server's close frame, with its code (1005 when it carried none, RFC 6455 §7.1.5).
        case close(code: UInt16)
        /// The connection cannot go on; `decodeError` when the server's bytes were at fault.
        case failed(LoadClientFailure, decodeError: Bool)
    }

    /// The offer: our inflater can take any server window, and we never compress, so we let the server pick our
    /// window too (`client_max_window_bits` without a value, RFC 7692 §7.1.2.2).
    static let deflateOffer = "permessage-deflate; client_max_window_bits"
    /// The largest inflated message accepted: a patch is a few KiB at most; 1 MiB only stops a runaway.
    static let maxMessageBytes = 1024 * 1024

    private let key: String
    private let offerDeflate: Bool
    /// The response head while the handshake is in progress; nil once upgraded.
    private var response: [UInt8]? = []
    private var decoder = WebSocketFrameDecoder(configuration: .client)
    private var inflater: Inflater?
    /// `server_no_context_takeover` stated in the response: the inflater starts afresh for each message.
    private var resetInflaterPerMessage = false
    private var fragments: [UInt8]?
    private var fragmentsCompressed = false

    init(key: String, offerDeflate: Bool) {
        self.key = key
        self.offerDeflate = offerDeflate
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        if response != nil { response?.append(contentsOf: bytes) } else { decoder.feed(bytes) }
    }

    mutating func next() -> Step {
        if let head = response { return handshake(head) }
        switch decoder.next() {
        case .needMoreData: return .needMoreData
        case .failed(let error): return .failed(.protocolError(error), decodeError: true)
        case .frame(let frame): return handle(frame)
        }
    }

    private mutating func handshake(_ head: [UInt8]) -> Step {
        guard let headEnd = LoadHandshake.headEnd(in: head) else {
            if head.count > LoadHandshake.maxResponseHeadBytes {
                return .failed(
                    .handshakeInvalid("response head over \(LoadHandshake.maxResponseHeadBytes) bytes"),
                    decodeError: false)
            }
            return .needMoreData
        }
        switch LoadHandshake.validate(head: head[..<headEnd], key: key, offeredExtensions: offerDeflate) {
        case .failure(let failure): return .failed(failure, decodeError: false)
        case .success(nil): break
        case .success(let extensions?):
            switch Self.acceptedDeflate(extensions) {
            case .failure(let failure): return .failed(failure, decodeError: false)
            case .success(let parameters):
                do {
                    inflater = try Inflater(windowBits: parameters.serverMaxWindowBits ?? 15)
                } catch {
                    return .failed(.handshakeInvalid("inflater: \(error)"), decodeError: false)
                }
                resetInflaterPerMessage = parameters.serverNoContextTakeover
                decoder = WebSocketFrameDecoder(
                    configuration: .init(maskPolicy: .forbidden, allowedReservedBits: .rsv1))
            }
        }
        response = nil
        decoder.feed(head[headEnd...])
        return .upgraded(deflate: inflater != nil, leftoverBytes: head.count - headEnd)
    }

    private mutating func handle(_ frame: WebSocketFrame) -> Step {
        switch frame.opcode {
        case .text, .binary:
            guard fragments == nil else {
                return .failed(.protocolError(.dataFrameDuringFragmentedMessage(frame.opcode)), decodeError: true)
            }
            if !frame.fin {
                fragments = frame.payload
                fragmentsCompressed = frame.rsv1
                return next()
            }
            return message(frame.payload, compressed: frame.rsv1)
        case .continuation:
            guard var message = fragments else {
                return .failed(.protocolError(.continuationWithoutStart), decodeError: true)
            }
            message += frame.payload
            if !frame.fin {
                fragments = message
                return next()
            }
            fragments = nil
            return self.message(message, compressed: fragmentsCompressed)
        case .ping:
            return .ping(frame.payload)
        case .pong:
            return next()
        case .close:
            return .close(
                code: frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1005)
        }
    }

    private mutating func message(_ payload: [UInt8], compressed: Bool) -> Step {
        guard compressed else { return .message(payload, compressed: false) }
        // RFC 7692 §6.1: RSV1 set on a message's first frame marks it compressed; only those are inflated.
        guard let inflater else {
            return .failed(.protocolError(.reservedBitsNotNegotiated(.rsv1)), decodeError: true)
        }
        do {
            let text = try inflater.decompress(payload, maxBytes: Self.maxMessageBytes)
            if resetInflaterPerMessage { inflater.reset() }
            return .message(text, compressed: true)
        } catch {
            return .failed(.inflateFailed(sequence: -1, "\(error)"), decodeError: true)
        }
    }

    /// The server's permessage-deflate response, checked against our offer (RFC 7692 §7.1: the server must not
    /// add a parameter we did not offer, except `server_no_context_takeover` and `server_max_window_bits`).
    static func acceptedDeflate(_ header: String) -> Result<PerMessageDeflateOffer, LoadClientFailure> {
        guard let elements = WebSocketExtensionOffer.parse(headerValues: [header]), elements.count == 1 else {
            return .failure(.handshakeInvalid("Sec-WebSocket-Extensions: \(header)"))
        }
        do {
            return .success(try PerMessageDeflateOffer(elements[0]))
        } catch {
            return .failure(.handshakeInvalid("permessage-deflate response \(header): \(error)"))
        }
    }
}

@available(*, unavailable) extension ClientMessageReader: Sendable {}
