import CourtsideTLS
import CourtsideWebSocket

/// One subscriber of the fan-out run, as a state machine the loop drives (it never touches a socket): the
/// upgrade (offering permessage-deflate when asked), then every message is decoded, inflated if it came
/// compressed, and checked: each sequence number exactly once and in order, and its delivery latency recorded.
/// Over TLS when given a context (``ClientTLS``: the same memory-BIO client as a tap-to-screen spectator's).
///
/// Counters go straight into the loop's ``FanoutTally`` (passed in), so the hot path returns no actions.
struct FanoutSubscriber {
    enum Action {
        case write([UInt8])
        /// The handshake completed.
        case upgraded(deflate: Bool)
        /// Close the socket; `failure` is nil when the subscriber ended as planned.
        case closeSocket(failure: LoadClientFailure?)
    }

    private(set) var state: SubscriberState = .connecting
    private let offerDeflate: Bool
    private let tlsContext: TLSContext?
    private var tls: ClientTLS?
    private let handshakeKey: String
    private var masking: MaskingKeySource
    private var reader: ClientMessageReader

    /// The sequence number expected next.
    private(set) var nextSequence = 0

    init(offerDeflate: Bool, tls: TLSContext? = nil, seed: UInt64) {
        self.offerDeflate = offerDeflate
        tlsContext = tls
        masking = MaskingKeySource(seed: seed)
        handshakeKey = LoadHandshake.makeKey(using: &masking)
        reader = ClientMessageReader(key: handshakeKey, offerDeflate: offerDeflate)
    }

    var isFinished: Bool { state.isFinished }
    var isOpen: Bool { state.isOpen }

    // MARK: events

    mutating func connected(target: LoadTarget) -> [Action] {
        guard case .connecting = state else { preconditionFailure("Invalid state: \(state)") }
        state = .handshaking
        let opening = ClientTLS.open(tlsContext, upgradeTo: target, key: handshakeKey, offerDeflate: offerDeflate)
        tls = opening.tls
        return opening.failure.map { finish($0) } ?? [.write(opening.firstBytes)]
    }

    mutating func bytesReceived(
        _ bytes: UnsafeRawBufferPointer, now: UInt64, tally: inout FanoutTally, watermark: inout FanoutWatermark
    ) -> [Action] {
        guard let tls else { return plaintextReceived(bytes, now: now, tally: &tally, watermark: &watermark) }
        guard !isFinished else { return [] }
        let received = tls.receive(bytes)
        var actions: [Action] = []
        if !received.ciphertext.isEmpty { actions.append(.write(received.ciphertext)) }
        if !received.plaintext.isEmpty {
            actions += received.plaintext.withUnsafeBytes {
                plaintextReceived($0, now: now, tally: &tally, watermark: &watermark)
            }
        }
        switch received.result {
        case .needsMoreData: return actions
        case .closed: return actions + (isFinished ? [] : connectionEnded(errno: nil))
        case .failed(let error): return actions + (isFinished ? [] : finish(.handshakeInvalid("TLS: \(error)")))
        }
    }

    private mutating func plaintextReceived(
        _ bytes: UnsafeRawBufferPointer, now: UInt64, tally: inout FanoutTally, watermark: inout FanoutWatermark
    ) -> [Action] {
        switch state {
        case .handshaking, .open, .closing:
            if case .handshaking = state {} else { tally.wireBytes += bytes.count }
            reader.feed(bytes)
            return readMessages(now: now, tally: &tally, watermark: &watermark)
        case .connecting, .finished:
            preconditionFailure("Invalid state: \(state)")
        }
    }

    /// The run is over: start the close handshake.
    mutating func close() -> [Action] {
        guard case .open = state else { return [] }
        state = .closing
        return write(WebSocketFrameEncoder.close(code: .normalClosure, maskingKey: masking.next()))
    }

    mutating func connectionEnded(errno code: Int32?) -> [Action] {
        state.ended(errno: code).map { finish($0) } ?? []
    }

    mutating func timedOut() -> [Action] {
        state.timedOut.map { finish($0) } ?? []
    }

    // MARK: messages

    private mutating func readMessages(
        now: UInt64, tally: inout FanoutTally, watermark: inout FanoutWatermark
    ) -> [Action] {
        var actions: [Action] = []
        while !isFinished {
            switch reader.next() {
            case .needMoreData:
                return actions
            case .upgraded(let deflate, let leftoverBytes):
                state = .open
                watermark.live += 1
                tally.wireBytes += leftoverBytes
                actions.append(.upgraded(deflate: deflate))
            case .message(let text, let compressed):
                if compressed { tally.compressedMessages += 1 }
                actions += message(text, now: now, tally: &tally, watermark: &watermark)
            case .ping(let payload):
                // RFC 6455 §5.5.2: answer with a pong carrying the same data.
                if case .open = state {
                    actions += write(WebSocketFrameEncoder.pong(payload, maskingKey: masking.next()))
                }
            case .close(let code):
                if case .closing = state { return actions + finish(nil) }
                return actions + finish(.closedByServer(code: code, inFlight: 0))
            case .failed(let failure, let decodeError):
                if decodeError { tally.decodeErrors += 1 }
                if case .inflateFailed(_, let why) = failure {
                    return actions + finish(.inflateFailed(sequence: nextSequence, why))
                }
                return actions + finish(failure)
            }
        }
        return actions
    }

    private mutating func message(
        _ text: [UInt8], now: UInt64, tally: inout FanoutTally, watermark: inout FanoutWatermark
    ) -> [Action] {
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

    /// The header of an unmasked server frame with this payload length (RFC 6455 §5.2).
    static func headerBytes(payload: Int) -> Int {
        payload < 126 ? 2 : payload < 65536 ? 4 : 10
    }

    /// `bytes` to the socket, through TLS when the subscriber speaks it.
    private func write(_ bytes: [UInt8]) -> [Action] {
        guard let tls else { return [.write(bytes)] }
        return tls.seal(bytes).map { [.write($0)] } ?? []
    }

    private mutating func finish(_ failure: LoadClientFailure?) -> [Action] {
        state = .finished
        tls = nil
        return [.closeSocket(failure: failure)]
    }
}

@available(*, unavailable) extension FanoutSubscriber: Sendable {}
