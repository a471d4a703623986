import Testing

@testable import CourtsideLoad

/// What the tap-to-screen clients read of the server's messages, from the bytes (docs/protocol.md's shapes).
@Suite("courtside-load taptoscreen: reading server messages")
struct TapMessageTests {
    private func read(_ text: String) -> TapMessage {
        Array(text.utf8).withUnsafeBytes { TapMessage.read($0) }
    }

    @Test("a patch's top-level seq, not the seq of a play inside its ops")
    func patch() {
        let patch =
            #"{"at":1700000012345,"game":"game-1","ops":[{"op":"add","path":"/plays/0","value":{"move":"twoPoints","#
            + #""seq":2,"team":"home"}}],"seq":12,"type":"patch","v":1}"#
        #expect(read(patch) == .patch(seq: 12))
        #expect(read(#"{"game":"g","ops":[],"seq":,"type":"patch","v":1}"#) == .other, "no digits")
        #expect(read(#"{"game":"g","ops":[],"xseq":3,"type":"patch","v":1}"#) == .other, "no seq key")
    }

    @Test("a snapshot's seq, an ack of our command tN, a refusal's code; anything else is other")
    func others() {
        #expect(read(#"{"game":"game-7","seq":41,"state":{"seq":3},"type":"snapshot","v":1}"#) == .snapshot(seq: 41))
        #expect(read(#"{"id":"t17","seq":9,"type":"ack","v":1}"#) == .ack(command: 17, seq: 9))
        #expect(read(#"{"id":"c2","seq":2,"type":"ack","v":1}"#) == .other, "not one of ours")
        #expect(
            read(#"{"code":"player_not_eligible","id":"t3","message":"…","type":"error","v":1}"#)
                == .error(code: "player_not_eligible"))
        #expect(read(#"{"count":3,"type":"viewers","v":1}"#) == .other)
        #expect(read("") == .other)
    }
}
