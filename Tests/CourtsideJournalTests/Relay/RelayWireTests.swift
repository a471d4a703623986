import CourtsideJournal
import CourtsideModel
import Testing

/// `RelayWire`: every message survives the trip, the bytes are the documented ones, and a bad message is refused
/// with the field it got wrong (docs/relay.md, "The connection").
@Suite("Relay wire: the relay's messages on the WebSocket")
struct RelayWireTests {
    let game: GameID = "vhall2.game-1"

    var entries: [RelayEntry] {
        [
            RelayEntry(seq: 7, event: Array(#"{"type":"score"}"#.utf8), presentationSequence: 5),
            RelayEntry(seq: 8, event: [0x00, 0xFF, 0x22], presentationSequence: 5),
        ]
    }

    @Test("every message decodes to itself", arguments: 0..<8)
    func roundTrip(_ index: Int) throws {
        var court = try Court(id: "vhall2.court-1", name: "Court 1", joining: .code, displayKeySHA256: "ab12")
        court.put(game)
        let messages: [RelayMessage] = [
            .hello(venue: "vhall2", token: "secret", boot: "b1", heads: [game: 9, "vhall2.game-2": 0]),
            .welcome(stored: [game: 4]),
            .open(game, record: Array(#"{"setup":{"home":"Hawks"}}"#.utf8)),
            .entries(game, entries),
            .snapshot(game, seq: 12, document: Array(#"{"seq":12,"score":"\"x\""}"#.utf8)),
            .ack(game, seq: 8),
            .resend(game, from: 0),
            .courts([court, try Court(id: "vhall2.court-2", name: "Court 2")]),
        ]
        let message = messages[index]
        #expect(try RelayWire.decode(RelayWire.encode(message)) == message)
    }

    @Test("entries travel as the documented binary message, the stored bytes unchanged")
    func entriesBytes() {
        let frame = RelayWire.encode(
            .entries("g", [RelayEntry(seq: 258, event: [0x7B, 0x7D], presentationSequence: 3)]))
        #expect(
            frame
                == .binary([
                    0x02, 1, 0x67, 0, 1,
                    0, 0, 0, 0, 0, 0, 1, 2,
                    0, 0, 0, 0, 0, 0, 0, 3,
                    0, 0, 0, 2, 0x7B, 0x7D,
                ]))
    }

    @Test("control messages are JSON text with sorted keys and games in id order")
    func controlBytes() {
        #expect(
            RelayWire.encode(.welcome(stored: ["b.2": 3, "b.1": 0]))
                == .text(
                    Array(#"{"games":[{"game":"b.1","stored":0},{"game":"b.2","stored":3}],"type":"welcome"}"#.utf8)))
        #expect(RelayWire.encode(.ack("b.1", seq: 5)) == .text(Array(#"{"game":"b.1","seq":5,"type":"ack"}"#.utf8)))
    }

    @Test("an entries message cut at any byte is refused as truncated, never read past its end")
    func everyPrefixTruncated() throws {
        guard case .binary(let bytes) = RelayWire.encode(.entries(game, entries)) else {
            Issue.record("entries are not binary")
            return
        }
        for length in 0..<bytes.count {
            #expect {
                try RelayWire.decode(.binary(Array(bytes.prefix(length))))
            } throws: { error in
                if case .truncated = error as? RelayWireError { return true }
                return false
            }
        }
    }

    @Test("a length beyond the message is refused before anything is allocated for it")
    func hostileLength() {
        let bytes: [UInt8] = [
            0x02, 1, 0x67, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF,
        ]
        #expect(throws: RelayWireError.truncated(field: "event", needed: 0xFFFF_FFFF, remaining: 0)) {
            try RelayWire.decode(.binary(bytes))
        }
    }

    @Test("bad binary messages name what is wrong")
    func badBinary() {
        let one: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
        let three: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
        #expect(throws: RelayWireError.unknownBinaryKind(1)) { try RelayWire.decode(.binary([1, 1, 0x67])) }
        #expect(throws: RelayWireError.invalidBatch(reason: "no entry")) {
            try RelayWire.decode(.binary([2, 1, 0x67, 0, 0]))
        }
        #expect(throws: RelayWireError.invalidGameID) { try RelayWire.decode(.binary([2, 0, 0, 1] + one)) }
        #expect(throws: RelayWireError.invalidGameID) { try RelayWire.decode(.binary([2, 1, 0xFF, 0, 1] + one)) }
        #expect(throws: RelayWireError.invalidBatch(reason: "seq 3 follows 1")) {
            try RelayWire.decode(.binary([2, 1, 0x67, 0, 2] + one + three))
        }
        #expect(throws: RelayWireError.trailingBytes(1)) {
            try RelayWire.decode(.binary([2, 1, 0x67, 0, 1] + one + [9]))
        }
        #expect(throws: RelayWireError.tooLarge(bytes: 6, limit: 5)) {
            try RelayWire.decode(.binary([2, 1, 0x67, 0, 1, 0]), limit: 5)
        }
    }

    @Test("bad control messages name the type and the field")
    func badControl() {
        func decode(_ text: String) throws -> RelayMessage { try RelayWire.decode(.text(Array(text.utf8))) }
        #expect(throws: RelayWireError.unknownType("entries")) { try decode(#"{"type":"entries","game":"g"}"#) }
        #expect(throws: RelayWireError.missingField(type: "ack", field: "seq")) {
            try decode(#"{"type":"ack","game":"g"}"#)
        }
        #expect(throws: RelayWireError.missingField(type: "hello", field: "token")) {
            try decode(#"{"type":"hello","venue":"v","boot":"b","games":[]}"#)
        }
        #expect(throws: RelayWireError.missingField(type: "welcome", field: "stored")) {
            try decode(#"{"type":"welcome","games":[{"game":"g","head":1}]}"#)
        }
        #expect(throws: RelayWireError.invalidSequence(field: "from", value: -1)) {
            try decode(#"{"type":"resend","game":"g","from":-1}"#)
        }
        #expect(throws: RelayWireError.invalidGameID) { try decode(#"{"type":"ack","game":"","seq":1}"#) }
        #expect {
            try decode("[1,2]")
        } throws: { error in
            if case .malformedJSON = error as? RelayWireError { return true }
            return false
        }
    }
}
