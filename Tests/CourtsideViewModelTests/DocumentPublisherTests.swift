import CourtsideModel
import Testing

@testable import CourtsideViewModels

@Suite("DocumentPublisher: batches become one patch, snapshots show whole batches")
struct DocumentPublisherTests {
    private func makePublisher() -> DocumentPublisher {
        DocumentPublisher(
            stream: .game(id: "g1"), document: ["score": "0 - 0", "players": [["n": "0"], ["n": "0"]], "games": [:]],
            seq: 0)
    }

    @Test("changes of one batch become one message with the next seq; repeated paths coalesce")
    func coalescing() throws {
        let publisher = makePublisher()
        publisher.set("1 - 0", at: JSONPointer(tokens: ["score"]))
        publisher.set("2 - 0", at: JSONPointer(tokens: ["score"]))
        publisher.set("1", at: JSONPointer(tokens: ["players", "1", "n"]))
        let message = publisher.commit(seq: 1)
        #expect(message.kind == .patch)
        #expect(
            message.text
                == #"{"game":"g1","ops":[{"op":"replace","path":"/score","value":"2 - 0"},"#
                + #"{"op":"replace","path":"/players/1/n","value":"1"}],"seq":1,"type":"patch","v":1}"#)
        #expect(publisher.seq == 1)
        #expect(!publisher.hasPendingChanges)
    }

    @Test("patch bytes are exactly the canonical encoding of the message object, for every stream and operation")
    func patchBytesAreCanonical() throws {
        let tricky = "quote \" back\\slash\nline\u{1} é ✓ 😀"
        let streams: [DocumentStream] = [.game(id: "g\"1"), .lobby, .court(id: "court/é")]
        for (index, stream) in streams.enumerated() {
            let publisher = DocumentPublisher(
                stream: stream,
                document: ["score": "0 - 0", "list": [1, 2, 3], "members": ["a/b": ["x": 1], "c~d": true]],
                seq: 0)
            var seq = 0
            var kinds: Set<String> = []
            for round in 0..<4 {
                publisher.set(.string("\(tricky) \(round)"), at: JSONPointer(tokens: ["score"]))
                publisher.set(.number(Double(round) + 0.5), at: JSONPointer(tokens: ["list", "1"]))
                publisher.set(
                    round % 2 == 0 ? nil : ["y": .null, "z": [.number(1.25), "t"]],
                    at: JSONPointer(tokens: ["members", "a/b"]))
                publisher.set(round % 2 == 0 ? ["n": .int(round)] : nil, at: JSONPointer(tokens: ["members", "new~/"]))
                let operations = publisher.pendingOperations()
                kinds.formUnion(operations.compactMap { $0.json["op"]?.stringValue })
                seq += 1
                let at: Timestamp? = round == 2 ? nil : Timestamp(milliseconds: 1_796_159_652_453 + Int64(round))
                let message = publisher.commit(seq: seq, at: at)
                var object = stream.envelope
                object["type"] = .string(stream.patchType)
                object["seq"] = .int(seq)
                object["ops"] = .array(operations.map(\.json))
                if let at { object["at"] = .int(Int(at.milliseconds)) }
                #expect(
                    message.bytes == JSONValue.object(object).canonicalBytes,
                    "stream \(index), round \(round): \(message.text)")
            }
            #expect(kinds == ["add", "remove", "replace"])
        }
    }

    @Test("a value changed and changed back within a batch produces no operation")
    func changedBack() {
        let publisher = makePublisher()
        publisher.set("1 - 0", at: JSONPointer(tokens: ["score"]))
        publisher.set("0 - 0", at: JSONPointer(tokens: ["score"]))
        #expect(publisher.pendingOperations() == [])
    }

    @Test("adding and removing members become add and remove operations, with escaped pointers")
    func addAndRemove() {
        let publisher = makePublisher()
        publisher.set(["x": 1], at: JSONPointer(tokens: ["games", "a/b"]))
        #expect(
            publisher.pendingOperations() == [.add(path: JSONPointer(tokens: ["games", "a/b"]), value: ["x": 1])])
        #expect(publisher.commit(seq: 1).text.contains(#""path":"/games/a~1b""#))
        publisher.set(nil, at: JSONPointer(tokens: ["games", "a/b"]))
        #expect(publisher.pendingOperations() == [.remove(path: JSONPointer(tokens: ["games", "a/b"]))])
    }

    @Test("a snapshot shows the published document, not the batch in progress, and is encoded once per seq")
    func snapshotConsistency() throws {
        let publisher = makePublisher()
        let first = publisher.snapshot()
        publisher.set("1 - 0", at: JSONPointer(tokens: ["score"]))
        #expect(publisher.snapshot() == first)
        #expect(first.text.contains(#""score":"0 - 0""#))
        let patch = publisher.commit(seq: 1)
        let second = publisher.snapshot()
        #expect(second.seq == 1)
        let patched = try JSONPatchApplier.apply(
            try JSONValue(parsing: patch.bytes)["ops"]!, to: try JSONValue(parsing: first.bytes)["state"]!)
        #expect(patched.canonicalBytes == (try JSONValue(parsing: second.bytes)["state"]!).canonicalBytes)
    }
}
