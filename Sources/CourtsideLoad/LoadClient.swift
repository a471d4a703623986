import CourtsideWebSocket

/// One WebSocket client of the load run, as a state machine: the loop feeds it socket events and performs the
/// actions it returns. It never touches a socket, so the loop can drive thousands of them from one thread.
///
/// Echoes must come back in order (a WebSocket echo answers each message on the same connection in turn), so
/// in-flight send times are a FIFO and the payload carries its sequence number to catch a server that mixes
/// messages up.
struct LoadClient {
    enum State {
        /// TCP connect in progress.
        case connecting
        /// Upgrade request written; collecting the response head.
        case handshaking(response: [UInt8])
        /// Upgraded: exchanging messages.
        case open
        /// Our close frame is written; waiting for the server's (RFC 6455 §5.5.1).
        case closing
        /// Done; `outcome` says how.
        case finished(LoadClientOutcome)
    }

    enum Action {
        case write([UInt8])
        /// An echo came back after `nanoseconds`.
        case roundTrip(nanoseconds: UInt64)
        /// The handshake completed; the client waits for `startSending`.
        case upgraded
        /// Close the socket: the client is finished.
        case closeSocket(LoadClientOutcome)
    }

    private(set) var state: State = .connecting
    private let payload: LoadPayload
    private let messageLimit: Int
    private let concurrency: Int
    private let handshakeKey: String
    private var decoder = WebSocketFrameDecoder(configuration: .client)
    /// Fragments of a message still arriving (servers may fragment an echo).
    private var fragments: [UInt8]?
    private var fragmentOpcode: WebSocketOpcode = .binary
    private var masking: MaskingKeySource

    /// Send times of the messages in flight, oldest first: `sendTimes[inFlightStart...]`.
    private var sendTimes: [UInt64] = []
    private var inFlightStart = 0
    private(set) var sent = 0
    private(set) var received = 0
    private var sending = false

    init(payload: LoadPayload, messageLimit: Int, concurrency: Int, seed: UInt64) {
        self.payload = payload
        self.messageLimit = messageLimit
        self.concurrency = concurrency
        self.masking = MaskingKeySource(seed: seed)
        self.handshakeKey = LoadHandshake.makeKey(using: &masking)
    }

    var inFlight: Int { sendTimes.count - inFlightStart }

    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    // MARK: events

    /// The TCP connection is established: send the upgrade request (RFC 6455 §4.1).
    mutating func connected(target: LoadTarget) -> [Action] {
        guard case .connecting = state else { preconditionFailure("Invalid state: \(state)") }
        state = .handshaking(response: [])
        return [.write(LoadHandshake.request(target: target, key: handshakeKey))]
    }

    /// Bytes arrived on the socket.
    mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer, now: UInt64) -> [Action] {
        switch state {
        case .handshaking(var response):
            response.append(contentsOf: bytes)
            guard let headEnd = LoadHandshake.headEnd(in: response) else {
                if response.count > LoadHandshake.maxResponseHeadBytes {
                    return finish(
                        .failed(.handshakeInvalid("response head over \(LoadHandshake.maxResponseHeadBytes) bytes")))
                }
                state = .handshaking(response: response)
                return []
            }
            if let failure = LoadHandshake.validate(head: response[..<headEnd], key: handshakeKey) {
                return finish(.failed(failure))
            }
            state = .open
            decoder.feed(response[headEnd...])
            return [.upgraded] + decodeFrames(now: now)
        case .open, .closing:
            decoder.feed(bytes)
            return decodeFrames(now: now)
        case .connecting, .finished:
            preconditionFailure("Invalid state: \(state)")
        }
    }

    /// Every client is connected: start the measured exchange with `concurrency` messages in flight.
    mutating func startSending(now: UInt64) -> [Action] {
        guard case .open = state else { return [] }
        sending = true
        var actions: [Action] = []
        while sending && inFlight < concurrency && sent < messageLimit {
            actions.append(sendNext(now: now))
        }
        return actions + closeIfDone()
    }

    /// The run's time is up: send nothing more; close once the messages in flight are back.
    mutating func stopSending() -> [Action] {
        sending = false
        return closeIfDone()
    }

    /// The peer closed the TCP connection (read returned 0) or it failed with `errno`.
    mutating func connectionEnded(errno code: Int32?) -> [Action] {
        switch state {
        case .closing:
            // The server may close TCP right after its close frame; if that frame was lost to us, the run's
            // data is complete all the same.
            return finish(.completed(cleanClose: false))
        case .finished:
            return []
        case .connecting:
            return finish(.failed(.connectFailed(errno: code ?? 0)))
        case .handshaking:
            return finish(.failed(.closedDuringHandshake(errno: code)))
        case .open:
            return finish(.failed(.closedWhileOpen(errno: code, inFlight: inFlight)))
        }
    }

    /// A deadline of the run passed while this client was not finished.
    mutating func timedOut() -> [Action] {
        switch state {
        case .finished: return []
        case .connecting, .handshaking: return finish(.failed(.handshakeTimedOut))
        case .open: return finish(.failed(.echoTimedOut(inFlight: inFlight)))
        case .closing: return finish(.completed(cleanClose: false))
        }
    }

    // MARK: frames

    private mutating func decodeFrames(now: UInt64) -> [Action] {
        var actions: [Action] = []
        while true {
            switch decoder.next() {
            case .needMoreData:
                return actions
            case .failed(let error):
                return actions + finish(.failed(.protocolError(error)))
            case .frame(let frame):
                actions += handle(frame, now: now)
                if isFinished { return actions }
            }
        }
    }

    private mutating func handle(_ frame: WebSocketFrame, now: UInt64) -> [Action] {
        switch frame.opcode {
        case .text, .binary:
            guard fragments == nil else {
                return finish(.failed(.protocolError(.dataFrameDuringFragmentedMessage(frame.opcode))))
            }
            if !frame.fin {
                fragments = frame.payload
                fragmentOpcode = frame.opcode
                return []
            }
            return echoReceived(frame.payload, opcode: frame.opcode, now: now)
        case .continuation:
            guard var message = fragments else {
                return finish(.failed(.protocolError(.continuationWithoutStart)))
            }
            message += frame.payload
            if !frame.fin {
                fragments = message
                return []
            }
            fragments = nil
            return echoReceived(message, opcode: fragmentOpcode, now: now)
        case .ping:
            // RFC 6455 §5.5.2: answer with a pong carrying the same data.
            guard case .open = state else { return [] }
            return [.write(WebSocketFrameEncoder.pong(frame.payload, maskingKey: masking.next()))]
        case .pong:
            return []
        case .close:
            if case .closing = state { return finish(.completed(cleanClose: true)) }
            let code = frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1005
            return finish(.failed(.closedByServer(code: code, inFlight: inFlight)))
        }
    }

    private mutating func echoReceived(_ message: [UInt8], opcode: WebSocketOpcode, now: UInt64) -> [Action] {
        guard inFlight > 0 else { return finish(.failed(.unexpectedMessage)) }
        let sequence = received
        guard opcode == payload.opcode, payload.matches(message, sequence: sequence) else {
            return finish(.failed(.echoMismatch(sequence: sequence)))
        }
        let sentAt = sendTimes[inFlightStart]
        inFlightStart += 1
        if inFlightStart > 1024 && inFlightStart * 2 > sendTimes.count {
            sendTimes.removeFirst(inFlightStart)
            inFlightStart = 0
        }
        received += 1
        var actions: [Action] = [.roundTrip(nanoseconds: now &- sentAt)]
        if sending && sent < messageLimit {
            actions.append(sendNext(now: now))
        }
        return actions + closeIfDone()
    }

    private mutating func sendNext(now: UInt64) -> Action {
        let frame = payload.frame(sequence: sent, maskingKey: masking.next())
        sendTimes.append(now)
        sent += 1
        return .write(frame)
    }

    /// Starts the close handshake once nothing more will be sent and every echo is back.
    private mutating func closeIfDone() -> [Action] {
        guard case .open = state, inFlight == 0, !sending || sent >= messageLimit else { return [] }
        sending = false
        state = .closing
        return [.write(WebSocketFrameEncoder.close(code: .normalClosure, maskingKey: masking.next()))]
    }

    private mutating func finish(_ outcome: LoadClientOutcome) -> [Action] {
        state = .finished(outcome)
        return [.closeSocket(outcome)]
    }
}

@available(*, unavailable) extension LoadClient: Sendable {}

/// How a client's run ended.
enum LoadClientOutcome: Sendable, Hashable {
    /// Every message it sent was echoed; `cleanClose` when the server answered our close frame.
    case completed(cleanClose: Bool)
    case failed(LoadClientFailure)
}

/// Why a client failed, with the context to explain it.
enum LoadClientFailure: Error, Sendable, Hashable, CustomStringConvertible {
    case connectFailed(errno: Int32)
    case closedDuringHandshake(errno: Int32?)
    case handshakeRefused(status: Int)
    case handshakeInvalid(String)
    case handshakeTimedOut
    case protocolError(WebSocketProtocolError)
    case closedByServer(code: UInt16, inFlight: Int)
    case closedWhileOpen(errno: Int32?, inFlight: Int)
    case echoMismatch(sequence: Int)
    case echoTimedOut(inFlight: Int)
    case unexpectedMessage
    /// A compressed message did not inflate (fan-out): the message expected and zlib's complaint.
    case inflateFailed(sequence: Int, String)
    /// A message that is not one of the publisher's patches (fan-out), after message `sequence - 1`.
    case notAPatch(sequence: Int)

    /// A short category for counting failures in the report.
    var category: String {
        switch self {
        case .connectFailed(let code): return "connect failed (errno \(code))"
        case .closedDuringHandshake: return "closed during handshake"
        case .handshakeRefused(let status): return "handshake refused (HTTP \(status))"
        case .handshakeInvalid: return "invalid handshake response"
        case .handshakeTimedOut: return "handshake timed out"
        case .protocolError: return "protocol error from server"
        case .closedByServer(let code, _): return "closed by server (code \(code))"
        case .closedWhileOpen: return "connection lost"
        case .echoMismatch: return "echo mismatch"
        case .echoTimedOut: return "echo timed out"
        case .unexpectedMessage: return "unexpected message"
        case .inflateFailed: return "inflate failed"
        case .notAPatch: return "not a patch"
        }
    }

    var description: String {
        switch self {
        case .handshakeInvalid(let why): return "\(category): \(why)"
        case .protocolError(let error): return "\(category): \(error)"
        case .closedWhileOpen(let code, let inFlight):
            return "\(category) (errno \(code.map(String.init) ?? "none"), \(inFlight) in flight)"
        case .echoMismatch(let sequence), .notAPatch(let sequence): return "\(category) at message \(sequence)"
        case .inflateFailed(let sequence, let why): return "\(category) at message \(sequence): \(why)"
        case .echoTimedOut(let inFlight): return "\(category) (\(inFlight) in flight)"
        default: return category
        }
    }
}
