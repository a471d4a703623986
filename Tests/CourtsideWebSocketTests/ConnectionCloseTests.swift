import Testing

@testable import CourtsideWebSocket

@Suite("Connection: close handshake")
struct ConnectionCloseTests {
    @Test(
        "echoes a valid close code and closes the transport (RFC 6455 §5.5.1)",
        arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999] as [UInt16])
    func validCodes(code: UInt16) {
        let actions = runDripFed(clientClose(code: code, reason: Array("bye".utf8)) + clientFrame(.text, "ignored"))
        #expect(writtenCloseCode(actions) == code)
        #expect(
            closure(actions)
                == .closeHandshakeCompleted(
                    peerCode: WebSocketCloseCode(rawValue: code), peerReason: "bye", initiatedByPeer: true))
        #expect(delivered(actions).isEmpty)
        #expect(actions.count == 2)
    }

    @Test(
        "fails with 1002 on a close code that must not be sent",
        arguments: [0, 999, 1004, 1005, 1006, 1012, 1013, 1014, 1015, 1016, 1100, 2000, 2999, 5000, 65_535] as [UInt16])
    func invalidCodes(code: UInt16) {
        let actions = runDripFed(clientClose(code: code))
        #expect(protocolError(actions) == .invalidCloseCode(code))
        #expect(writtenCloseCode(actions) == 1002)
    }

    @Test("answers an empty close frame with an empty close frame")
    func emptyClose() {
        let actions = runDripFed(clientFrame(.close))
        #expect(writtenFrames(actions) == [WebSocketFrame(opcode: .close, payload: [])])
        #expect(closure(actions) == .closeHandshakeCompleted(peerCode: nil, peerReason: "", initiatedByPeer: true))
    }

    @Test("fails with 1002 on a one-byte close payload")
    func oneByteClose() {
        let actions = runDripFed(clientFrame(.close, [0x03]))
        #expect(protocolError(actions) == .closePayloadTooShort)
        #expect(writtenCloseCode(actions) == 1002)
    }

    @Test("fails with 1007 on a close reason that is not UTF-8, including one cut inside a character")
    func invalidReason() {
        for reason: [UInt8] in [[0xCE, 0xBA, 0xED, 0xA0, 0x80], [0x61, 0xE2, 0x82]] {
            let actions = runDripFed(clientClose(code: 1000, reason: reason))
            #expect(protocolError(actions) == .invalidCloseReason)
            #expect(writtenCloseCode(actions) == 1007)
        }
    }

    @Test("accepts a 123-byte reason and refuses a close frame of 126 bytes")
    func reasonLength() {
        let longest = runDripFed(clientClose(code: 1000, reason: [UInt8](repeating: 0x2A, count: 123)))
        #expect(writtenCloseCode(longest) == 1000)
        let tooLong = runDripFed(clientClose(code: 1000, reason: [UInt8](repeating: 0x2A, count: 124)))
        #expect(protocolError(tooLong) == .controlFrameTooLong(opcode: .close, length: 126))
    }

    @Test("completes a close that arrives between fragments and drops the partial message (Autobahn 7.1.5)")
    func closeInsideFragmentedMessage() {
        let actions = runDripFed(
            clientFrame(.text, "frag", fin: false) + clientClose(code: 1000) + clientFrame(.continuation, "ment"))
        #expect(delivered(actions).isEmpty)
        #expect(writtenCloseCode(actions) == 1000)
        #expect(actions.count == 2)
    }

    @Test("ignores everything after the peer's close frame, even garbage")
    func afterClose() {
        var connection = WebSocketConnectionStateMachine(now: t0)
        #expect(connection.bytesReceived(clientClose(code: 1000) + [0xFF, 0xFF], now: t0).count == 2)
        #expect(connection.isClosed)
        #expect(connection.bytesReceived(clientFrame(.ping, "x"), now: t0).isEmpty)
        #expect(connection.timerFired(now: t0 + .seconds(3600)).isEmpty)
        #expect(connection.close(now: t0).isEmpty)
        #expect(connection.nextDeadline == nil)
    }

    @Test("server-initiated close: sends the code, waits for the peer's close, then closes the transport")
    func serverInitiated() {
        var connection = WebSocketConnectionStateMachine(now: t0)
        let actions = connection.close(code: .goingAway, reason: "shutting down", now: t0)
        #expect(writtenCloseCode(actions) == 1001)
        #expect(actions.last == .scheduleTimer(t0 + .seconds(5)))
        #expect(!connection.isOpen && !connection.isClosed)
        #expect(connection.close(now: t0).isEmpty)
        // Data still arriving is discarded and pings are not answered (RFC 6455 §5.5.1: nothing after close).
        #expect(
            connection.bytesReceived(clientFrame(.text, "late") + clientFrame(.ping, "p"), now: t0 + .seconds(1))
                .isEmpty)
        let reply = connection.bytesReceived(clientClose(code: 1001), now: t0 + .seconds(2))
        #expect(
            reply == [
                .closeTransport(.closeHandshakeCompleted(peerCode: .goingAway, peerReason: "", initiatedByPeer: false))
            ])
        #expect(connection.isClosed)
    }

    @Test("server-initiated close: closes the transport when the peer does not answer in time")
    func closeTimeout() {
        var connection = WebSocketConnectionStateMachine(now: t0)
        _ = connection.close(now: t0)
        #expect(connection.timerFired(now: t0 + .seconds(4)) == [.scheduleTimer(t0 + .seconds(5))])
        #expect(connection.timerFired(now: t0 + .seconds(5)) == [.closeTransport(.closeTimedOut)])
        #expect(connection.isClosed)
    }

    @Test("a protocol error after our close frame closes the transport without another close frame")
    func errorWhileClosing() {
        var connection = WebSocketConnectionStateMachine(now: t0)
        _ = connection.close(now: t0)
        let actions = connection.bytesReceived([0x81, 0x00], now: t0)
        #expect(actions == [.closeTransport(.protocolError(.unmaskedClientFrame))])
    }

    @Test("reports the peer closing the transport without a close frame")
    func transportClosed() {
        var connection = WebSocketConnectionStateMachine(now: t0)
        #expect(connection.transportClosed() == [.closeTransport(.transportClosedByPeer)])
        #expect(connection.transportClosed().isEmpty)
    }

    @Test("every protocol error maps to its close code in one place")
    func errorCodes() {
        let cases: [(WebSocketProtocolError, WebSocketCloseCode)] = [
            (.reservedOpcode(3), .protocolError), (.reservedBitsNotNegotiated(.rsv2), .protocolError),
            (.unmaskedClientFrame, .protocolError), (.maskedServerFrame, .protocolError),
            (.controlFrameTooLong(opcode: .ping, length: 126), .protocolError),
            (.fragmentedControlFrame(.close), .protocolError),
            (.payloadLengthTopBitSet, .protocolError), (.frameTooLarge(length: 2, limit: 1), .messageTooBig),
            (.messageTooLarge(size: 2, limit: 1), .messageTooBig), (.continuationWithoutStart, .protocolError),
            (.dataFrameDuringFragmentedMessage(.text), .protocolError),
            (.invalidUTF8(offset: 0), .invalidFramePayloadData),
            (.closePayloadTooShort, .protocolError), (.invalidCloseCode(5), .protocolError),
            (.invalidCloseReason, .invalidFramePayloadData), (.reservedBitOnContinuation, .protocolError),
            (.extensionFailed("x"), .invalidFramePayloadData),
        ]
        for (error, code) in cases {
            #expect(error.closeCode == code, "\(error)")
            #expect(error.closeReason.utf8.count <= 123)
        }
    }

    @Test("classifies close codes for the wire and round-trips raw values")
    func closeCodeValues() {
        for raw: UInt16 in [
            0, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 3000, 4999, 5000,
        ] {
            #expect(WebSocketCloseCode(rawValue: raw).rawValue == raw)
        }
        #expect(WebSocketCloseCode(rawValue: 4000) == .unknown(4000))
        #expect(WebSocketCloseCode.noStatusReceived.isValidOnWire == false)
        #expect(WebSocketCloseCode.internalError.isValidOnWire)
    }
}
