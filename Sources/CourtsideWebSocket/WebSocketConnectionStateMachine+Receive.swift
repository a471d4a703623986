extension WebSocketConnectionStateMachine {
    /// Checks the header of the frame still arriving, and validates its text so far, so a bad frame fails
    /// before its payload is complete (Autobahn 6.4.3 and 6.4.4 send an invalid byte and then wait).
    mutating func inspectFrameInProgress() throws(WebSocketProtocolError) {
        guard let (header, prefix) = decoder.frameInProgress else { return }
        if !frameInProgressChecked {
            try check(header)
            frameInProgressChecked = true
        }
        if validates(header) && prefix.count > frameBytesValidated {
            try validateText(prefix[(prefix.startIndex + frameBytesValidated)...])
            frameBytesValidated = prefix.count
        }
    }

    /// A complete frame arrived.
    mutating func receive(_ frame: WebSocketFrame, now: Instant, into actions: inout [WebSocketAction])
        throws(WebSocketProtocolError)
    {
        let header = WebSocketFrameHeader(
            fin: frame.fin, reservedBits: frame.reservedBits, opcode: frame.opcode, payloadLength: frame.payload.count)
        if !frameInProgressChecked {
            try check(header)
        }
        frameInProgressChecked = false
        let alreadyValidated = frameBytesValidated
        frameBytesValidated = 0
        if validates(header) && frame.payload.count > alreadyValidated {
            try validateText(frame.payload[alreadyValidated...])
        }
        switch frame.opcode {
        case .text, .binary:
            if frame.fin {
                try complete(opcode: frame.opcode, compressed: frame.rsv1, payload: frame.payload, into: &actions)
            } else {
                fragmented = FragmentedMessage(opcode: frame.opcode, compressed: frame.rsv1, payload: frame.payload)
            }
        case .continuation:
            guard var message = fragmented else { preconditionFailure("Invalid state: \(state)") }  // check()
            fragmented = nil  // so the append below does not copy the buffer
            message.payload.append(contentsOf: frame.payload)
            if frame.fin {
                try complete(
                    opcode: message.opcode, compressed: message.compressed, payload: message.payload, into: &actions)
            } else {
                fragmented = message
            }
        case .ping:
            // RFC 6455 §5.5.2–5.5.3: answer with the same payload, unless our close frame has gone out.
            if isOpen { actions.append(.write(WebSocketFrameEncoder.pong(frame.payload))) }
        case .pong:
            // An answer to our idle ping, or unsolicited (RFC 6455 §5.5.3: no response expected). Liveness was
            // already recorded when the bytes arrived.
            break
        case .close:
            try receiveClose(frame.payload, into: &actions)
        }
    }

    /// Checks a frame header against the connection's state: fragmentation order (RFC 6455 §5.4), the
    /// extension's use of RSV1 (RFC 7692 §6.1) and the message size limit.
    private mutating func check(_ header: WebSocketFrameHeader) throws(WebSocketProtocolError) {
        switch header.opcode {
        case .continuation:
            guard let message = fragmented else { throw .continuationWithoutStart }
            if header.reservedBits.contains(.rsv1) { throw .reservedBitOnContinuation }
            try checkSize(message.payload.count + header.payloadLength)
        case .text, .binary:
            if fragmented != nil { throw .dataFrameDuringFragmentedMessage(header.opcode) }
            try checkSize(header.payloadLength)
            // A new message: decide whether to validate it as it arrives.
            validatingText = header.opcode == .text && !header.reservedBits.contains(.rsv1)
            textValidator.reset()
            messageBytesValidated = 0
        case .close, .ping, .pong:
            // Extensions define reserved bits for data frames only (RFC 7692 §6.1 for RSV1).
            if !header.reservedBits.isEmpty { throw .reservedBitsNotNegotiated(header.reservedBits) }
        }
    }

    /// The size on the wire (compressed or not), checked as each frame header arrives: a message past the limit
    /// is refused before its payload is read, let alone inflated or parsed.
    private func checkSize(_ size: Int) throws(WebSocketProtocolError) {
        if size > limits.maxMessageBytes {
            throw .messageTooLarge(size: size, limit: limits.maxMessageBytes)
        }
    }

    /// Whether this frame's payload is part of a text message validated on arrival.
    private func validates(_ header: WebSocketFrameHeader) -> Bool {
        !header.opcode.isControl && validatingText
    }

    private mutating func validateText(_ bytes: ArraySlice<UInt8>) throws(WebSocketProtocolError) {
        if let index = textValidator.validate(bytes) {
            throw .invalidUTF8(offset: messageBytesValidated + index)
        }
        messageBytesValidated += bytes.count
    }

    /// The final frame of a message arrived: decode it through the extension if it was compressed, check the
    /// text, deliver it (unless our close frame has gone out: RFC 6455 §1.4, the peer's data is discarded).
    private mutating func complete(
        opcode: WebSocketOpcode, compressed: Bool, payload: [UInt8], into actions: inout [WebSocketAction]
    ) throws(WebSocketProtocolError) {
        var payload = payload
        if compressed {
            guard var messageExtension else { preconditionFailure("Invalid state: \(state)") }  // decoder refuses
            // The inflated size has its own limit, and inflation stops as soon as it passes it: a few KiB of
            // compressed zeros must not cost megabytes and a second of CPU (RFC 7692 §8.1 leaves this to us).
            let limit = limits.maxInflatedMessageBytes
            payload = try messageExtension.decodeMessage(payload, opcode: opcode, maxBytes: limit)
            self.messageExtension = messageExtension
            if payload.count > limit { throw .messageTooLarge(size: payload.count, limit: limit) }
            if opcode == .text {
                var validator = UTF8Validator()
                if let index = validator.validate(payload) { throw .invalidUTF8(offset: index) }
                if !validator.isAtCharacterBoundary { throw .invalidUTF8(offset: payload.count) }
            }
        } else if opcode == .text && !textValidator.isAtCharacterBoundary {
            // The message ended inside a character (RFC 6455 §8.1).
            throw .invalidUTF8(offset: payload.count)
        }
        validatingText = false
        guard isOpen else { return }
        switch opcode {
        case .text: actions.append(.deliver(.text(String(decoding: payload, as: UTF8.self))))
        case .binary: actions.append(.deliver(.binary(payload)))
        default: preconditionFailure("Invalid state: \(state)")  // only data opcodes start messages
        }
    }
}
