import Testing

@testable import CourtsideWebSocket

/// A stand-in for a compressing extension: marks its frames with RSV1 and counts the messages it saw.
private final class MarkingExtension: WebSocketMessageExtension {
    var reservedBits: WebSocketReservedBits { .rsv1 }
    var encoded: [WebSocketMessage] = []

    func decodeMessage(_ payload: [UInt8], opcode: WebSocketOpcode, maxBytes: Int)
        throws(WebSocketProtocolError) -> [UInt8]
    {
        throw .extensionResourceFailure("no memory")
    }

    func encodeFrame(for message: WebSocketMessage) -> [UInt8] {
        encoded.append(message)
        return WebSocketFrameEncoder.frame(
            opcode: message.opcode, payload: message.payload.reversed(), reservedBits: .rsv1)
    }
}

/// An extension that keeps the default send hook.
private struct DecodeOnlyExtension: WebSocketMessageExtension {
    var reservedBits: WebSocketReservedBits { .rsv1 }

    func decodeMessage(_ payload: [UInt8], opcode: WebSocketOpcode, maxBytes: Int)
        throws(WebSocketProtocolError) -> [UInt8]
    {
        payload
    }
}

@Suite("Connection: the extension's send hook and pre-built frames")
struct ConnectionSendHookTests {
    @Test("send goes through the extension's encodeFrame, in order")
    func sendUsesHook() {
        let hook = MarkingExtension()
        var connection = startedConnection(messageExtension: hook)
        let actions = connection.send(.text("abc")) + connection.send(.binary([1, 2]))
        var decoder = WebSocketFrameDecoder(
            configuration: .init(maskPolicy: .forbidden, allowedReservedBits: .rsv1, maxFramePayloadBytes: 1 << 20))
        var frames: [WebSocketFrame] = []
        for case .write(let bytes) in actions {
            decoder.feed(bytes)
            while case .frame(let frame) = decoder.next() { frames.append(frame) }
        }
        #expect(frames.map(\.rsv1) == [true, true])
        #expect(frames.map(\.payload) == [Array("cba".utf8), [2, 1]])
        #expect(hook.encoded == [.text("abc"), .binary([1, 2])])
    }

    @Test("the default send hook writes the plain frame")
    func defaultHook() {
        var connection = startedConnection(messageExtension: DecodeOnlyExtension())
        #expect(connection.send(.text("hi")) == [.write(WebSocketFrameEncoder.text("hi"))])
    }

    @Test("sendFrame writes pre-built bytes as they are, and nothing once a close frame was sent")
    func sendFrame() {
        let hook = MarkingExtension()
        var connection = startedConnection(messageExtension: hook)
        let frame = WebSocketFrameEncoder.text("shared")
        #expect(connection.sendFrame(frame) == [.write(frame)])
        #expect(hook.encoded.isEmpty, "a pre-built frame bypasses the extension")
        _ = connection.close(now: t0)
        #expect(connection.sendFrame(frame) == [])
        #expect(connection.send(.text("late")) == [])
        #expect(hook.encoded.isEmpty)
    }

    @Test("an extension's own failure (no memory) closes with 1011, not a protocol error code")
    func resourceFailure() {
        var connection = startedConnection(messageExtension: MarkingExtension())
        let actions = connection.bytesReceived(clientFrame(.text, [1, 2, 3], reservedBits: .rsv1), now: t0)
        #expect(protocolError(actions) == .extensionResourceFailure("no memory"))
        #expect(writtenCloseCode(actions) == 1011)
        #expect(WebSocketProtocolError.extensionResourceFailure("x").closeCode == .internalError)
    }
}
