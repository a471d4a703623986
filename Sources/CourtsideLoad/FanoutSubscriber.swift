import CourtsideWebSocket
import CourtsideWebSocketDeflate

/// One subscriber of the fan-out run, as a state machine the loop drives (it never touches a socket): the
/// upgrade (offering permessage-deflate when asked), then every message is decoded, inflated if it came
/// compressed, and checked: each sequence number exactly once and in order, and its delivery latency recorded.
///
/// Counters go straight into the loop's ``FanoutTally`` (passed in), so the hot path returns no actions.
struct FanoutSubscriber {
    enum State {
        case connecting
        case handshaking(response: [UInt8])
        case open
        /// Our close frame is written; waiting for the server's (RFC 6455 §5.5.1).
        case closing
        case finished
    }

    enum Action {
        case write([UInt8])
        /// The handshake completed.
        case upgraded(deflate: Bool)
        /// Close the socket; `failure` is nil when the subscriber ended as planned.
        case closeSocket(failure: LoadClientFailure?)
    }

    /// The largest inflated message accepted: a patch is a few hundred bytes; 1 MiB only stops a runaway.
    static let maxMessageBytes = 1024 * 1024

    private(set) var state: State = .connecting
    private let offerDeflate: Bool
    private let handshakeKey: String
    private var masking: MaskingKeySource
    private var decoder = WebSocketFrameDecoder(configuration: .client)
    private var inflater: Inflater?
    /// `server_no_context_takeover` stated in the response: the inflater starts afresh for each message.
    private var resetInflaterPerMessage = false
    private var fragments: [UInt8]?
    private var fragmentsCompressed = false
    private var fragmentsWireBytes = 0

    /// The sequence number expected next.
    private(set) var nextSequence = 0

    init(offerDeflate: Bool, seed: UInt64) {
        self.offerDeflate = offerDeflate
        masking = MaskingKeySource(seed: seed)
        handshakeKey = LoadHandshake.makeKey(using: &masking)
    }

    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    /// The offer: our inflater can take any server window, and we never compress, so we let the server pick
    /// our window too (`client_max_window_bits` without a value, RFC 7692 §7.1.2.2).
    static let deflateOffer = "permessage-deflate; client_max_window_bits"

    // MARK: events

    mutating func connected(target: LoadTarget) -> [Action] {
        guard case .connecting = state else { preconditionFailure("Invalid state: \(state)") }
        state = .handshaking(response: [])
        return [
            .write(
                LoadHandshake.request(
                    target: target, key: handshakeKey, extensions: offerDeflate ? Self.deflateOffer : nil))
        ]
    }

    mutating func bytesReceived(
        _ bytes: UnsafeRawBufferPointer, now: UInt64, tally: inout FanoutTally, watermark: inout FanoutWatermark
    ) -> [Action] {
        switch state {
        case .handshaking(var response):
            response.append(contentsOf: bytes)
            guard let headEnd = LoadHandshake.headEnd(in: response) else {
                if response.count > LoadHandshake.maxResponseHeadBytes {
                    return finish(.handshakeInvalid("response head over \(LoadHandshake.maxResponseHeadBytes) bytes"))
                }
                state = .handshaking(response: response)
                return []
            }
            let extensions: String?
            switch LoadHandshake.validate(
                head: response[..<headEnd], key: handshakeKey, offeredExtensions: offerDeflate)
            {
            case .failure(let failure): return finish(failure)
            case .success(let value): extensions = value
            }
            if let extensions {
                switch Self.acceptedDeflate(extensions) {
                case .failure(let failure): return finish(failure)
                case .success(let parameters):
                    do {
                        inflater = try Inflater(windowBits: parameters.serverMaxWindowBits ?? 15)
                    } catch {
                        return finish(.handshakeInvalid("inflater: \(error)"))
                    }
                    resetInflaterPerMessage = parameters.serverNoContextTakeover
                    decoder = WebSocketFrameDecoder(
                        configuration: .init(maskPolicy: .forbidden, allowedReservedBits: .rsv1))
                }
            }
            state = .open
            watermark.live += 1
            let rest = response[headEnd...]
            tally.wireBytes += rest.count
            decoder.feed(rest)
            return [.upgraded(deflate: inflater != nil)] + decodeFrames(now: now, tally: &tally, watermark: &watermark)
        case .open, .closing:
            tally.wireBytes += bytes.count
            decoder.feed(bytes)
            return decodeFrames(now: now, tally: &tally, watermark: &watermark)
        case .connecting, .finished:
            preconditionFailure("Invalid state: \(state)")
        }
    }

    /// The run is over: start the close handshake.
    mutating func close() -> [Action] {
        guard case .open = state else { return [] }
        state = .closing
        return [.write(WebSocketFrameEncoder.close(code: .normalClosure, maskingKey: masking.next()))]
    }

    mutating func connectionEnded(errno code: Int32?) -> [Action] {
        switch state {
        case .closing: return finish(nil)
        case .finished: return []
        case .connecting: return finish(.connectFailed(errno: code ?? 0))
        case .handshaking: return finish(.closedDuringHandshake(errno: code))
        case .open: return finish(.closedWhileOpen(errno: code, inFlight: 0))
        }
    }

    mutating func timedOut() -> [Action] {
        switch state {
        case .finished: return []
        case .connecting, .handshaking: return finish(.handshakeTimedOut)
        case .open, .closing: return finish(nil)
        }
    }

    // MARK: frames

    private mutating func decodeFrames(
        now: UInt64, tally: inout FanoutTally, watermark: inout FanoutWatermark
    ) -> [Action] {
        var actions: [Action] = []
        while true {
            switch decoder.next() {
            case .needMoreData:
                return actions
            case .failed(let error):
                tally.decodeErrors += 1
                return actions + finish(.protocolError(error))
            case .frame(let frame):
                actions += handle(frame, now: now, tally: &tally, watermark: &watermark)
                if isFinished { return actions }
            }
        }
    }

    private mutating func handle(
        _ frame: WebSocketFrame, now: UInt64, tally: inout FanoutTally, watermark: inout FanoutWatermark
    ) -> [Action] {
        switch frame.opcode {
        case .text, .binary:
            guard fragments == nil else {
                return decodeFailure(.dataFrameDuringFragmentedMessage(frame.opcode), &tally)
            }
            let headerBytes = Self.headerBytes(payload: frame.payload.count)
            if !frame.fin {
                fragments = frame.payload
                fragmentsCompressed = frame.rsv1
                fragmentsWireBytes = headerBytes + frame.payload.count
                return []
            }
            return message(frame.payload, compressed: frame.rsv1, now: now, tally: &tally, watermark: &watermark)
        case .continuation:
            guard var message = fragments else { return decodeFailure(.continuationWithoutStart, &tally) }
            message += frame.payload
            if !frame.fin {
                fragments = message
                return []
            }
            fragments = nil
            return self.message(
                message, compressed: fragmentsCompressed, now: now, tally: &tally, watermark: &watermark)
        case .ping:
            // RFC 6455 §5.5.2: answer with a pong carrying the same data.
            guard case .open = state else { return [] }
            return [.write(WebSocketFrameEncoder.pong(frame.payload, maskingKey: masking.next()))]
        case .pong:
            return []
        case .close:
            if case .closing = state { return finish(nil) }
            let code = frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1005
            return finish(.closedByServer(code: code, inFlight: 0))
        }
    }

    private mutating func message(
        _ payload: [UInt8], compressed: Bool, now: UInt64, tally: inout FanoutTally, watermark: inout FanoutWatermark
    ) -> [Action] {
        var text = payload
        if compressed {
            // RFC 7692 §6.1: RSV1 set on a message's first frame marks it compressed; only those are inflated.
            guard let inflater else { return decodeFailure(.reservedBitsNotNegotiated(.rsv1), &tally) }
            do {
                text = try inflater.decompress(payload, maxBytes: Self.maxMessageBytes)
            } catch {
                tally.decodeErrors += 1
                return finish(.inflateFailed(sequence: nextSequence, "\(error)"))
            }
            if resetInflaterPerMessage { inflater.reset() }
            tally.compressedMessages += 1
        }
        guard let stamp = text.withUnsafeBytes({ FanoutStamp.read($0) }) else {
            tally.decodeErrors += 1
            return finish(.notAPatch(sequence: nextSequence))
        }
        tally.delivered += 1
        tally.plainFrameBytes += Self.headerBytes(payload: text.count) + text.count
        tally.smallestMessage = min(tally.smallestMessage, text.count)
        tally.largestMessage = max(tally.largestMessage, text.count)
        tally.latency.record(now &- stamp.sentAt)
        tally.lastDelivery = now
        if stamp.sequence == nextSequence {
            watermark.passed(from: nextSequence, through: nextSequence)
            nextSequence += 1
        } else if stamp.sequence > nextSequence {
            tally.skipped += stamp.sequence - nextSequence
            watermark.passed(from: nextSequence, through: stamp.sequence)
            nextSequence = stamp.sequence + 1
        } else {
            tally.outOfOrder += 1
        }
        return []
    }

    private mutating func decodeFailure(_ error: WebSocketProtocolError, _ tally: inout FanoutTally) -> [Action] {
        tally.decodeErrors += 1
        return finish(.protocolError(error))
    }

    /// The header of an unmasked server frame with this payload length (RFC 6455 §5.2).
    static func headerBytes(payload: Int) -> Int {
        payload < 126 ? 2 : payload < 65536 ? 4 : 10
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

    private mutating func finish(_ failure: LoadClientFailure?) -> [Action] {
        state = .finished
        inflater = nil
        return [.closeSocket(failure: failure)]
    }
}

@available(*, unavailable) extension FanoutSubscriber: Sendable {}
