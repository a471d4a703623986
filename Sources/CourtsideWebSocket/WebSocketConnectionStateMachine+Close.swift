import CourtsideHTTP

extension WebSocketConnectionStateMachine {
    /// The application closes the connection: send a close frame and wait for the peer's (RFC 6455 §7.1.2)
    /// until ``Configuration/closeTimeout``. Does nothing once a close frame has been sent.
    ///
    /// - Parameters:
    ///   - code: sent as is (use a code valid on the wire: 1000, 1001, 1008, 1011, 4000–4999, …); nil sends an
    ///     empty close frame.
    ///   - reason: UTF-8, cut at a character boundary to fit the 123 bytes left in the frame.
    public mutating func close(code: WebSocketCloseCode? = .normalClosure, reason: String = "", now: Instant)
        -> [WebSocketAction]
    {
        guard isOpen else { return [] }
        state = .closeSent(deadline: CompactInstant(now + configuration.closeTimeout))
        pingSentAt = nil
        var actions: [WebSocketAction] = [.write(WebSocketFrameEncoder.close(code: code, reason: reason))]
        appendTimerIfEarlier(to: &actions)
        return actions
    }

    /// The owner's timer fired: send an idle ping, or close a peer that let a deadline pass.
    public mutating func timerFired(now: Instant) -> [WebSocketAction] {
        scheduledDeadline = nil  // the owner's timer is spent
        var actions: [WebSocketAction] = []
        switch state {
        case .closed:
            return []
        case .closeSent(let deadline):
            if CompactInstant(now) >= deadline {
                state = .closed
                actions.append(.closeTransport(.closeTimedOut))
            }
        case .open:
            if let pingSentAt {
                if now >= pingSentAt + configuration.pongTimeout {
                    // Nothing arrived since the ping: the peer (or the path to it) is gone, so a close frame
                    // would never be read.
                    state = .closed
                    fragmented = nil
                    actions.append(.closeTransport(.peerUnresponsive))
                }
            } else if let interval = configuration.idlePingInterval, now >= lastReceived + interval {
                pingSentAt = now
                actions.append(.write(WebSocketFrameEncoder.ping()))
            }
        }
        appendTimerIfEarlier(to: &actions)
        return actions
    }

    /// A close frame arrived: validate its body (RFC 6455 §5.5.1, §7.4), then answer it or finish our own
    /// close handshake.
    mutating func receiveClose(_ payload: [UInt8], into actions: inout [WebSocketAction])
        throws(WebSocketProtocolError)
    {
        var peerCode: WebSocketCloseCode?
        var peerReason = ""
        switch payload.count {
        case 0:
            break
        case 1:
            throw .closePayloadTooShort
        default:
            let raw = UInt16(payload[0]) << 8 | UInt16(payload[1])
            let code = WebSocketCloseCode(rawValue: raw)
            guard code.isValidOnWire else { throw .invalidCloseCode(raw) }
            var validator = UTF8Validator()
            let reason = payload[2...]
            guard validator.validate(reason) == nil, validator.isAtCharacterBoundary else {
                throw .invalidCloseReason
            }
            peerCode = code
            peerReason = String(decoding: reason, as: UTF8.self)
        }
        switch state {
        case .open:
            // Echo the peer's code (RFC 6455 §5.5.1), then close the transport first, as a server should
            // (RFC 6455 §7.1.1). A fragmented message still in progress is dropped.
            actions.append(.write(WebSocketFrameEncoder.close(code: peerCode)))
            actions.append(
                .closeTransport(
                    .closeHandshakeCompleted(peerCode: peerCode, peerReason: peerReason, initiatedByPeer: true)))
        case .closeSent:
            actions.append(
                .closeTransport(
                    .closeHandshakeCompleted(peerCode: peerCode, peerReason: peerReason, initiatedByPeer: false)))
        case .closed:
            preconditionFailure("Invalid state: \(state)")  // bytesReceived stops decoding once closed
        }
        state = .closed
        fragmented = nil
    }
}
