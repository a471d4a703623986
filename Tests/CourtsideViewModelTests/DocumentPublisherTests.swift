import CourtsideViewModels
import Testing

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
