import Testing

@testable import CourtsideWebSocket

@Suite("Connection: messages and fragmentation")
struct ConnectionMessageTests {
    @Test("delivers single-frame text and binary messages in order")
    func singleFrames() {
        let actions = runDripFed(
            clientFrame(.text, "héllo") + clientFrame(.binary, [0, 255, 7]) + clientFrame(.text, ""))
        #expect(actions == [.deliver(.text("héllo")), .deliver(.binary([0, 255, 7])), .deliver(.text(""))])
    }

    @Test("reassembles a fragmented message with pings and pongs between its fragments (RFC 6455 §5.4)")
    func interleavedControlFrames() {
        let bytes =
            clientFrame(.text, "Hel", fin: false) + clientFrame(.ping, "p1")
            + clientFrame(.continuation, "lo, ", fin: false)
            + clientFrame(.pong, "unsolicited") + clientFrame(.continuation, "wor", fin: false) + clientFrame(.ping, "")
            + clientFrame(.continuation, "ld")
        let actions = runDripFed(bytes)
        #expect(
            actions == [
                .write(WebSocketFrameEncoder.pong(Array("p1".utf8))), .write(WebSocketFrameEncoder.pong([])),
                .deliver(.text("Hello, world")),
            ])
    }

    @Test("reassembles a binary message from many empty and one-byte fragments")
    func manyFragments() {
        var bytes = clientFrame(.binary, [], fin: false)
        for index in 0..<200 { bytes += clientFrame(.continuation, index % 2 == 0 ? [] : [UInt8(index)], fin: false) }
        bytes += clientFrame(.continuation, [])
        let expected = (0..<200).filter { $0 % 2 == 1 }.map { UInt8($0) }
        #expect(runDripFed(bytes) == [.deliver(.binary(expected))])
    }

    @Test("validates a multi-byte character split across fragments")
    func splitCharacter() {
        let euro = Array("€".utf8)  // E2 82 AC
        let bytes =
            clientFrame(.text, [euro[0]], fin: false) + clientFrame(.continuation, [euro[1]], fin: false)
            + clientFrame(.continuation, [euro[2]])
        #expect(runDripFed(bytes) == [.deliver(.text("€"))])
    }

    @Test("fails with 1002 on a continuation frame without a message in progress")
    func continuationWithoutStart() {
        let actions = runDripFed(clientFrame(.continuation, "x") + clientFrame(.text, "never"))
        #expect(protocolError(actions) == .continuationWithoutStart)
        #expect(writtenCloseCode(actions) == 1002)
        #expect(delivered(actions).isEmpty)
    }

    @Test(
        "fails with 1002 on a new data frame inside a fragmented message", arguments: [WebSocketOpcode.text, .binary])
    func newMessageInsideFragmented(opcode: WebSocketOpcode) {
        let actions = runDripFed(clientFrame(.text, "a", fin: false) + clientFrame(opcode, "b"))
        #expect(protocolError(actions) == .dataFrameDuringFragmentedMessage(opcode))
        #expect(writtenCloseCode(actions) == 1002)
    }

    @Test("fails with 1002 on decoder errors: reserved opcode, unmasked frame, RSV bits, fragmented ping")
    func decoderErrors() {
        for (bytes, error) in [
            ([0x83, 0x80, 1, 2, 3, 4] as [UInt8], WebSocketProtocolError.reservedOpcode(3)),
            ([0x81, 0x00], .unmaskedClientFrame),
            (clientFrame(.text, [], reservedBits: .rsv1), .reservedBitsNotNegotiated(.rsv1)),
            (clientFrame(.ping, [], fin: false), .fragmentedControlFrame(.ping)),
        ] {
            let actions = runDripFed(clientFrame(.text, "ok") + bytes)
            #expect(delivered(actions) == [.text("ok")])
            #expect(protocolError(actions) == error)
            #expect(writtenCloseCode(actions) == 1002)
        }
    }

    @Test("fails with 1007 on invalid UTF-8 at the first bad byte, before the frame is complete")
    func utf8FailsFast() {
        // Autobahn 6.4.3: a valid prefix, then a chunk with the bad byte, while the frame is still incomplete.
        let text: [UInt8] = [
            0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65, 0x64,
        ]
        let frame = clientFrame(.text, text + Array("and much more text follows".utf8))
        var connection = startedConnection()
        let headerLength = 6
        #expect(connection.bytesReceived(frame[..<(headerLength + 11)], now: t0).isEmpty)
        let actions = connection.bytesReceived(frame[(headerLength + 11)..<(headerLength + 14)], now: t0)
        #expect(protocolError(actions) == .invalidUTF8(offset: 12))
        #expect(writtenCloseCode(actions) == 1007)
        #expect(connection.isClosed)
        #expect(connection.bytesReceived(frame[(headerLength + 14)...], now: t0).isEmpty)
    }

    @Test("fails with 1007 in the fragment that breaks UTF-8, before the message ends (Autobahn 6.4.1)")
    func utf8FailsInFragment() {
        var connection = startedConnection()
        #expect(connection.bytesReceived(clientFrame(.text, [0xCE, 0xBA], fin: false), now: t0).isEmpty)
        let actions = connection.bytesReceived(
            clientFrame(.continuation, [0xF4, 0x90, 0x80, 0x80], fin: false), now: t0)
        #expect(protocolError(actions) == .invalidUTF8(offset: 3))
        #expect(writtenCloseCode(actions) == 1007)
    }

    @Test("fails with 1007 when a text message ends inside a character")
    func utf8Truncated() {
        let actions = runDripFed(clientFrame(.text, [0x41, 0xE2, 0x82]))
        #expect(protocolError(actions) == .invalidUTF8(offset: 3))
        #expect(writtenCloseCode(actions) == 1007)
    }

    @Test("does not validate binary messages as UTF-8")
    func binaryNotValidated() {
        #expect(runDripFed(clientFrame(.binary, [0xFF, 0xC0])) == [.deliver(.binary([0xFF, 0xC0]))])
    }

    @Test("fails with 1009 once a message passes the size limit, as soon as the frame header says so")
    func messageLimit() {
        let configuration = WebSocketConnectionStateMachine.Configuration(maxMessageBytes: 100)
        let atLimit = runDripFed(clientFrame(.binary, [UInt8](repeating: 1, count: 100)), configuration: configuration)
        #expect(delivered(atLimit).count == 1)
        let fragmented =
            clientFrame(.text, String(repeating: "a", count: 60), fin: false)
            + clientFrame(.continuation, String(repeating: "b", count: 41))
        let actions = runDripFed(fragmented, configuration: configuration)
        #expect(protocolError(actions) == .messageTooLarge(size: 101, limit: 100))
        #expect(writtenCloseCode(actions) == 1009)
        // Only the header of the oversized frame has arrived, and the connection is already failed.
        var connection = startedConnection(configuration: configuration)
        let header = Array(clientFrame(.binary, [UInt8](repeating: 0, count: 101))[..<8])
        #expect(writtenCloseCode(connection.bytesReceived(header, now: t0)) == 1009)
    }

    @Test("fails with 1009 on a frame over the frame limit")
    func frameLimit() {
        let configuration = WebSocketConnectionStateMachine.Configuration(maxFramePayloadBytes: 200)
        let actions = runDripFed(clientFrame(.binary, [UInt8](repeating: 1, count: 201)), configuration: configuration)
        #expect(protocolError(actions) == .frameTooLarge(length: 201, limit: 200))
        #expect(writtenCloseCode(actions) == 1009)
    }

    @Test("accepts a 16 MiB message by default, fragmented into 64 KiB frames")
    func sixteenMiB() {
        let chunk = [UInt8](repeating: 0x61, count: 65_536)
        var connection = startedConnection()
        var actions: [WebSocketAction] = []
        for index in 0..<256 {
            let frame = clientFrame(index == 0 ? .binary : .continuation, chunk, fin: index == 255)
            actions += connection.bytesReceived(frame, now: t0)
        }
        #expect(actions.count == 1)
        #expect(delivered(actions).first.map { $0.payload.count } == 16 * 1024 * 1024)
    }

    @Test("sends a message as one frame while open, and nothing after its close frame")
    func send() {
        var connection = startedConnection()
        #expect(connection.send(.text("hi")) == [.write(WebSocketFrameEncoder.text("hi"))])
        #expect(connection.send(.binary([1])) == [.write(WebSocketFrameEncoder.binary([1]))])
        _ = connection.close(now: t0)
        #expect(connection.send(.text("late")).isEmpty)
    }
}
