import CourtsideBytes
import CourtsideNet
import Testing

@testable import Courtside
@testable import CourtsideViewModels

@Suite("Encoded messages and command requests: encoded and decoded once")
struct EncodedMessageTests {
    private let json = Array(#"{"game":"g-1","ops":[{"op":"replace","path":"/time","value":"é 10:00"}],"seq":42}"#.utf8)

    @Test("an encoded message carries the presenter's bytes as they are, framed once as text")
    func bytesToFrame() {
        let message = EncodedMessage(kind: .patch, seq: 42, bytes: json)
        #expect(message.frame == WebSocketFrameEncoder.frame(opcode: .text, payload: json))
        // Built once, on the first call: publish and every catch-up share the same array.
        #expect(message.frame.withUnsafeBytes { $0.baseAddress } == message.frame.withUnsafeBytes { $0.baseAddress })
        // The payload the channel compresses is the presenter's array itself, not a copy through a String.
        #expect(message.bytes.withUnsafeBytes { $0.baseAddress } == json.withUnsafeBytes { $0.baseAddress })
    }

    @Test("its server-sent event is the one ServerSentEvent encodes for the same id and JSON")
    func event() {
        let message = EncodedMessage(kind: .patch, seq: 42, bytes: json)
        let expected = ServerSentEvent(id: "42", data: String(decoding: json, as: UTF8.self)).encoded
        #expect(message.serverSentEvent == expected)
        #expect(String(decoding: message.serverSentEvent, as: UTF8.self).hasPrefix("id: 42\ndata: {"))
        // Made once, on the first call: the second call returns the same array, not another one.
        #expect(
            message.serverSentEvent.withUnsafeBytes { $0.baseAddress }
                == message.serverSentEvent.withUnsafeBytes { $0.baseAddress })
    }

    @Test("equal messages say the same thing; the forms made do not count")
    func equality() {
        let framed = EncodedMessage(kind: .patch, seq: 42, bytes: json)
        _ = framed.frame
        #expect(framed == EncodedMessage(kind: .patch, seq: 42, bytes: json))
        #expect(framed != EncodedMessage(kind: .snapshot, seq: 42, bytes: json))
        #expect(framed != EncodedMessage(kind: .patch, seq: 43, bytes: json))
        #expect(framed != EncodedMessage(kind: .patch, seq: 42, bytes: Array(json.dropLast())))
    }

    @Test("a request is decoded on arrival; its refusal names the command without parsing it again")
    func refusalReusesDecoded() {
        let valid = CommandRequest(
            bytes: Array(#"{"type":"move","id":"c-7","player":"home-0","move":"assist"}"#.utf8),
            receivedAt: .now, reply: { _ in })
        guard case .success(let command)? = valid.decoded else {
            Issue.record("not decoded: \(String(describing: valid.decoded))")
            return
        }
        #expect(command.id == "c-7")
        #expect(
            CommandReply.refusal(.unavailable, "busy", for: valid)
                == .rejected(id: "c-7", failure: CommandFailure(.unavailable, "busy")))
        // Not a command, but its id is readable: the refusal still names it, as refusal(bytes:) does.
        let unknownMove = Array(#"{"type":"move","id":"c-8","player":"home-0","move":"dunk"}"#.utf8)
        let invalid = CommandRequest(bytes: unknownMove, receivedAt: .now, reply: { _ in })
        #expect(invalid.commandID == "c-8")
        #expect(
            CommandReply.refusal(.rateLimited, "slow down", for: invalid)
                == CommandReply.refusal(.rateLimited, "slow down", bytes: unknownMove))
        let reopen = CommandRequest(bytes: [], receivedAt: .now, reply: { _ in }, isReopen: true)
        #expect(reopen.isReopen && reopen.decoded == nil && reopen.commandID == nil)
        #expect(!valid.isReopen)
    }
}
