import Testing

@testable import CourtsideWebSocket

/// A stand-in for permessage-deflate: "decompresses" by reversing the bytes, or fails on a marker byte.
private struct ReversingExtension: WebSocketMessageExtension {
    var reservedBits: WebSocketReservedBits { .rsv1 }
    var calls = 0

    mutating func decodeMessage(_ payload: [UInt8], opcode: WebSocketOpcode, maxBytes: Int)
        throws(WebSocketProtocolError) -> [UInt8]
    {
        calls += 1
        if payload.first == 0xEE { throw .extensionFailed("corrupt") }
        return payload.reversed()
    }
}

@Suite("Connection: message extension hook")
struct ConnectionExtensionTests {
    private func run(_ bytes: [UInt8]) -> [WebSocketAction] {
        var connection = startedConnection(messageExtension: ReversingExtension())
        return connection.bytesReceived(bytes, now: t0)
    }

    @Test("passes a message whose first frame has RSV1 through the extension before UTF-8 validation")
    func transformed() {
        let bytes =
            clientFrame(.text, Array("olleh".utf8), reservedBits: .rsv1) + clientFrame(.text, "plain")
            + clientFrame(.binary, [1, 2], fin: false, reservedBits: .rsv1) + clientFrame(.continuation, [3])
        #expect(run(bytes) == [.deliver(.text("hello")), .deliver(.text("plain")), .deliver(.binary([3, 2, 1]))])
    }

    @Test("validates the decoded text, not the compressed bytes")
    func validatesDecoded() {
        // Invalid UTF-8 on the wire, valid once "decoded"; then valid on the wire, invalid once decoded.
        #expect(delivered(run(clientFrame(.text, [0xA9, 0xC3], reservedBits: .rsv1))) == [.text("é")])
        let actions = run(clientFrame(.text, [0xA9, 0x41], reservedBits: .rsv1))
        #expect(protocolError(actions) == .invalidUTF8(offset: 1))
    }

    @Test("fails with 1002 on RSV1 on a continuation or control frame, and 1007 when the extension fails")
    func errors() {
        let continuation = run(
            clientFrame(.text, "a", fin: false) + clientFrame(.continuation, [], reservedBits: .rsv1))
        #expect(protocolError(continuation) == .reservedBitOnContinuation)
        #expect(writtenCloseCode(continuation) == 1002)
        let ping = run(clientFrame(.ping, [], reservedBits: .rsv1))
        #expect(protocolError(ping) == .reservedBitsNotNegotiated(.rsv1))
        let corrupt = run(clientFrame(.binary, [0xEE], reservedBits: .rsv1))
        #expect(protocolError(corrupt) == .extensionFailed("corrupt"))
        #expect(writtenCloseCode(corrupt) == 1007)
    }

    @Test("still refuses RSV2 and RSV3, which the extension does not use")
    func otherBits() {
        #expect(protocolError(run(clientFrame(.text, [], reservedBits: .rsv2))) == .reservedBitsNotNegotiated(.rsv2))
    }
}
