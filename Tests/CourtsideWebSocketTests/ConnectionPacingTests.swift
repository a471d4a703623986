import Testing

@testable import CourtsideWebSocket

/// The frame limit (the owner's back-pressure lever) and per-connection message limits, as traces.
@Suite("Connection: frame pacing and message limits")
struct ConnectionPacingTests {
    @Test("a frame limit answers that many frames and keeps the rest buffered until asked")
    func frameLimit() {
        var connection = startedConnection()
        let pings = (0..<5).flatMap { clientFrame(.ping, [UInt8($0)]) }
        let pong = { (index: Int) in WebSocketAction.write(WebSocketFrameEncoder.pong([UInt8(index)])) }
        #expect(connection.bytesReceived(pings, now: t0, frameLimit: 2) == [pong(0), pong(1)])
        #expect(connection.hasPendingFrames)
        #expect(connection.receivePending(now: t0, frameLimit: 2) == [pong(2), pong(3)])
        #expect(connection.hasPendingFrames)
        #expect(connection.receivePending(now: t0, frameLimit: 2) == [pong(4)])
        #expect(!connection.hasPendingFrames)
        #expect(connection.receivePending(now: t0, frameLimit: 2) == [])
    }

    @Test("frames taken a step at a time give the same actions as all at once, in every chunking")
    func pacedEqualsUnpaced() {
        let bytes =
            clientFrame(.text, "Hel", fin: false) + clientFrame(.ping, "p") + clientFrame(.continuation, "lo")
            + clientFrame(.binary, [1, 2]) + clientFrame(.ping, "q") + clientFrame(.text, "x")
        let reference = runDripFed(bytes)
        for chunking in Chunking.allCases {
            var connection = startedConnection()
            var actions: [WebSocketAction] = []
            for chunk in chunking.split(bytes) {
                actions += connection.bytesReceived(chunk, now: t0, frameLimit: 1)
                while connection.hasPendingFrames { actions += connection.receivePending(now: t0, frameLimit: 1) }
            }
            #expect(actions == reference, "chunking: \(chunking)")
        }
    }

    @Test("a message past the connection's limit is refused at its header, before its payload arrives")
    func limitAtHeader() {
        var connection = startedConnection()
        connection.limits = WebSocketMessageLimits(maxMessageBytes: 512)
        // Only the header of a 16 MiB frame: refused at once with 1009.
        let header = Array(clientFrame(.text, [UInt8](repeating: 0x61, count: 70_000))[0..<14])
        let actions = connection.bytesReceived(header, now: t0)
        #expect(protocolError(actions) == .messageTooLarge(size: 70_000, limit: 512))
        #expect(writtenCloseCode(actions) == 1009)
    }

    @Test("raising the limit applies from the next message")
    func raiseLimit() {
        var connection = startedConnection()
        connection.limits = WebSocketMessageLimits(maxMessageBytes: 10)
        #expect(connection.bytesReceived(clientFrame(.text, "0123456789"), now: t0) == [.deliver(.text("0123456789"))])
        connection.limits = WebSocketMessageLimits(maxMessageBytes: 20)
        let long = String(repeating: "z", count: 20)
        #expect(connection.bytesReceived(clientFrame(.text, long), now: t0) == [.deliver(.text(long))])
        #expect(
            protocolError(connection.bytesReceived(clientFrame(.text, long + "!"), now: t0))
                == .messageTooLarge(size: 21, limit: 20))
    }

    @Test("the limit counts a fragmented message's sum")
    func fragmentedSum() {
        var connection = startedConnection()
        connection.limits = WebSocketMessageLimits(maxMessageBytes: 8)
        let actions = connection.bytesReceived(
            clientFrame(.text, "12345", fin: false) + clientFrame(.continuation, "6789"), now: t0)
        #expect(protocolError(actions) == .messageTooLarge(size: 9, limit: 8))
    }
}
