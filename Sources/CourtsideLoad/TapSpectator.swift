import CourtsideTLS
import CourtsideWebSocket

/// One spectator of a `courtside-load taptoscreen` run, as a state machine ``ClientLoop`` drives: over TLS when
/// given a context (a memory-BIO ``TLSConnection``: ciphertext in and out, plaintext to the WebSocket layer),
/// upgrades `WS /ws/games/{id}` (offering permessage-deflate when asked), takes the snapshot's `seq`, then stamps
/// each patch's arrival with the loop's monotonic clock into the loop's ``TapLoopTally``, and counts the gaps.
struct TapSpectator {
    enum Action {
        case write([UInt8])
        case upgraded(deflate: Bool)
        case closeSocket(failure: LoadClientFailure?)
    }

    let game: Int
    /// The report's class of this spectator (its transport and node).
    let classIndex: Int
    private let path: String
    private let offerDeflate: Bool
    private let tlsContext: TLSContext?
    private var tls: ClientTLS?
    private(set) var state: SubscriberState = .connecting
    private let handshakeKey: String
    private var masking: MaskingKeySource
    private var reader: ClientMessageReader
    /// The last document `seq` this spectator has (the snapshot's, then each patch's); -1 before the snapshot.
    private(set) var lastSeq = -1

    init(game: Int, gameID: String, classIndex: Int, deflate: Bool, tls: TLSContext?, seed: UInt64) {
        self.game = game
        self.classIndex = classIndex
        path = "/ws/games/\(gameID)"
        offerDeflate = deflate
        tlsContext = tls
        masking = MaskingKeySource(seed: seed)
        handshakeKey = LoadHandshake.makeKey(using: &masking)
        reader = ClientMessageReader(key: handshakeKey, offerDeflate: deflate)
    }

    var isFinished: Bool { state.isFinished }
    var isOpen: Bool { state.isOpen }

    mutating func connected(target: LoadTarget) -> [Action] {
        guard case .connecting = state else { preconditionFailure("Invalid state: \(state)") }
        state = .handshaking
        var own = target
        own.path = path
        let opening = ClientTLS.open(tlsContext, upgradeTo: own, key: handshakeKey, offerDeflate: offerDeflate)
        tls = opening.tls
        return opening.failure.map { finish($0) } ?? [.write(opening.firstBytes)]
    }

    mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer, now: UInt64, tally: inout TapLoopTally) -> [Action] {
        guard let tls else { return plaintextReceived(bytes, now: now, tally: &tally) }
        let received = tls.receive(bytes)
        var actions: [Action] = []
        if !received.ciphertext.isEmpty { actions.append(.write(received.ciphertext)) }
        if !received.plaintext.isEmpty {
            actions += received.plaintext.withUnsafeBytes { plaintextReceived($0, now: now, tally: &tally) }
        }
        switch received.result {
        case .needsMoreData: return actions
        case .closed: return actions + (isFinished ? [] : connectionEnded(errno: nil))
        case .failed(let error): return actions + (isFinished ? [] : finish(.handshakeInvalid("TLS: \(error)")))
        }
    }

    private mutating func plaintextReceived(
        _ bytes: UnsafeRawBufferPointer, now: UInt64, tally: inout TapLoopTally
    ) -> [Action] {
        guard !isFinished else { return [] }
        reader.feed(bytes)
        var actions: [Action] = []
        while !isFinished {
            switch reader.next() {
            case .needMoreData:
                return actions
            case .upgraded(let deflate, _):
                state = .open
                actions.append(.upgraded(deflate: deflate))
            case .message(let text, _):
                received(text, now: now, tally: &tally)
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
                return actions + finish(failure)
            }
        }
        return actions
    }

    /// The snapshot's `seq`, then each patch's arrival (and any gap before it).
    private mutating func received(_ text: [UInt8], now: UInt64, tally: inout TapLoopTally) {
        switch text.withUnsafeBytes({ TapMessage.read($0) }) {
        case .snapshot(let seq):
            lastSeq = seq
        case .patch(let seq):
            guard lastSeq >= 0, seq > lastSeq else { return }
            if seq > lastSeq + 1 { tally.gaps += seq - lastSeq - 1 }
            lastSeq = seq
            tally.record(
                TapArrival(game: Int32(game), seq: Int32(clamping: seq), classIndex: UInt8(classIndex), at: now))
        case .ack, .error, .other:
            break
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

    /// `bytes` to the socket, through TLS when the spectator speaks it.
    private mutating func write(_ bytes: [UInt8]) -> [Action] {
        guard let tls else { return [.write(bytes)] }
        return tls.seal(bytes).map { [.write($0)] } ?? []
    }

    private mutating func finish(_ failure: LoadClientFailure?) -> [Action] {
        state = .finished
        tls = nil
        return [.closeSocket(failure: failure)]
    }
}

@available(*, unavailable) extension TapSpectator: Sendable {}

/// A patch's arrival at one spectator: the game, the patch's `seq`, the spectator's class, the monotonic time.
struct TapArrival: Sendable, Equatable {
    var game: Int32
    var seq: Int32
    var classIndex: UInt8
    var at: UInt64
}

/// What one loop's spectators count.
struct TapLoopTally: Sendable {
    /// The most arrivals a loop keeps (24 bytes each): a run's spectators × patches is bounded by its options,
    /// and this bounds the memory whatever they are; past it arrivals are counted in `dropped`, not stamped.
    static let maxArrivals = 4_000_000

    var arrivals: [TapArrival] = []
    var dropped = 0
    var gaps = 0
    var decodeErrors = 0
    var upgraded = 0
    var deflateAgreed = 0
    var failures = FailureCounts()

    mutating func record(_ arrival: TapArrival) {
        guard arrivals.count < Self.maxArrivals else {
            dropped += 1
            return
        }
        arrivals.append(arrival)
    }
}

extension TapSpectator: LoopClient {
    static func socketRequest(for action: Action, live: Bool, tally: inout TapLoopTally) -> LoopSocketRequest? {
        switch action {
        case .write(let bytes): return bytes.isEmpty ? nil : .write(bytes)
        case .upgraded(let deflate):
            tally.upgraded += 1
            if deflate { tally.deflateAgreed += 1 }
            return .upgraded
        case .closeSocket(let failure):
            if let failure { tally.failures.record(failure) }
            return .close
        }
    }
}
