import CourtsideViewModels
import Testing

@Suite("The test target's RFC 6902 applier")
struct JSONPatchApplierTests {
    private func apply(_ document: String, _ patch: String) throws -> String {
        let result = try JSONPatchApplier.apply(try JSONValue(parsing: patch), to: try JSONValue(parsing: document))
        return result.description
    }

    @Test("RFC 6902 appendix A examples for add, remove, replace, move and copy")
    func appendixExamples() throws {
        #expect(
            try apply(#"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#)
                == #"{"baz":"qux","foo":"bar"}"#)
        #expect(
            try apply(#"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#)
                == #"{"foo":["bar","qux","baz"]}"#)
        #expect(
            try apply(#"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":"x"}]"#) == #"{"foo":["bar","x"]}"#)
        #expect(try apply(#"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#) == #"{"foo":"bar"}"#)
        #expect(try apply(#"{"baz":"qux"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#) == #"{"baz":"boo"}"#)
        #expect(
            try apply(
                #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
                #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#)
                == #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#)
        #expect(try apply(#"{"a":[1,2]}"#, #"[{"op":"copy","from":"/a/0","path":"/b"}]"#) == #"{"a":[1,2],"b":1}"#)
    }

    @Test("test succeeds on equal values and fails otherwise; errors for missing paths")
    func testAndErrors() throws {
        #expect(
            try apply(#"{"a":{"b":[1,"x"]}}"#, #"[{"op":"test","path":"/a/b","value":[1,"x"]}]"#)
                == #"{"a":{"b":[1,"x"]}}"#)
        #expect(throws: JSONPatchApplier.Failure.testFailed("/a")) {
            try apply(#"{"a":1}"#, #"[{"op":"test","path":"/a","value":2}]"#)
        }
        #expect(throws: JSONPatchApplier.Failure.pathNotFound("b")) {
            try apply(#"{"a":1}"#, #"[{"op":"replace","path":"/b","value":2}]"#)
        }
        #expect(throws: JSONPatchApplier.Failure.pathNotFound("01")) {
            try apply(#"{"a":[1,2]}"#, #"[{"op":"remove","path":"/a/01"}]"#)
        }
    }

    @Test("pointer tokens unescape ~1 to / and ~0 to ~, in that order")
    func pointerEscapes() throws {
        #expect(try JSONPatchApplier.parsePointer("/a~1b/m~0n/~01") == ["a/b", "m~n", "~1"])
        #expect(try JSONPatchApplier.parsePointer("") == [])
        #expect(try JSONPatchApplier.parsePointer("/") == [""])
        #expect(throws: JSONPatchApplier.Failure.malformedPointer("/a~2")) { try JSONPatchApplier.parsePointer("/a~2") }
        #expect(
            try apply(#"{"a/b":{"m~n":1}}"#, #"[{"op":"replace","path":"/a~1b/m~0n","value":2}]"#)
                == #"{"a/b":{"m~n":2}}"#)
    }
}
