import CourtsideTestSupport
import Testing

@testable import CourtsideWebSocket

@Suite("Connection: random sessions")
struct ConnectionSessionTests {
    /// A random but valid client session: text and binary messages, fragmented at random, with pings and pongs
    /// between fragments, and a close at the end. Returns the bytes, the messages and the pings' payloads.
    private func randomSession(seed: UInt64) -> (bytes: [UInt8], messages: [WebSocketMessage], pings: [[UInt8]]) {
        var generator = SeededGenerator(seed: seed)
        let alphabet = Array("aé€𝄞 z").map(String.init)
        var bytes: [UInt8] = []
        var messages: [WebSocketMessage] = []
        var pings: [[UInt8]] = []
        for _ in 0..<40 {
            let message: WebSocketMessage
            if Bool.random(using: &generator) {
                let count = Int.random(in: 0...60, using: &generator)
                message = .text((0..<count).map { _ in alphabet.randomElement(using: &generator)! }.joined())
            } else {
                message = .binary(
                    (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    })
            }
            messages.append(message)
            // Cut anywhere, even inside a character: validation carries state across frames.
            var payload = message.payload[...]
            var first = true
            repeat {
                let take = min(payload.count, Int.random(in: 0...80, using: &generator))
                let fin = take == payload.count
                let key = WebSocketMaskingKey.random(using: &generator)
                bytes += WebSocketFrameEncoder.frame(
                    opcode: first ? message.opcode : .continuation, payload: payload.prefix(take), fin: fin,
                    maskingKey: key)
                payload = payload.dropFirst(take)
                first = false
                if !fin && Int.random(in: 0..<4, using: &generator) == 0 {
                    let ping = (0..<Int.random(in: 0...125, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                    pings.append(ping)
                    bytes += WebSocketFrameEncoder.ping(ping, maskingKey: key)
                }
                if fin { break }
            } while true
        }
        bytes += clientClose(code: 1000)
        return (bytes, messages, pings)
    }

    @Test(
        "delivers every message of a random fragmented session, whatever the reads", arguments: [1, 2, 3] as [UInt64])
    func randomSessions(seed: UInt64) {
        let session = randomSession(seed: seed)
        let actions = runDripFed(session.bytes)
        #expect(delivered(actions) == session.messages)
        let pongs = writtenFrames(actions).filter { $0.opcode == .pong }.map(\.payload)
        #expect(pongs == session.pings)
        #expect(writtenCloseCode(actions) == 1000)
        #expect(
            closure(actions)
                == .closeHandshakeCompleted(peerCode: .normalClosure, peerReason: "", initiatedByPeer: true))
    }
}
