import CourtsideViewModels
import Testing

@Suite("JSONValue.apply: the diff's operations as RFC 6902 defines them")
struct JSONValuePatchTests {
    /// The fuzzer's first find (Fuzz/Corpus/json/patch-array-shrinks): a diff that shortens an array removes from
    /// the end, and `apply` refused array removals.
    @Test(
        "a diff applied step by step gives its target",
        arguments: [
            ("[[]]", "[]"), ("[1]", "[\"a\",2,{\"x\":[]}]"), ("{\"0\":1,\"p\":[1,2,3]}", "{\"p\":[1]}"),
            ("{\"plays\":[{\"n\":1}]}", "{\"plays\":[{\"n\":1},{\"n\":2}]}"), ("1", "{\"a\":null}"),
        ])
    func diffApplies(old: String, new: String) throws {
        let from = try JSONValue(parsing: old)
        let to = try JSONValue(parsing: new)
        var patched = from
        for operation in from.patchOperations(to: to) {
            let applied1 = patched.apply(operation)
            #expect(applied1, "\(operation.json)")
        }
        #expect(patched == to)
    }

    @Test("array add inserts at an index or appends at -, remove shifts, bad indices are refused unchanged")
    func arrays() throws {
        var value = try JSONValue(parsing: "{\"a\":[1,3]}")
        let applied2 = value.apply(.add(path: JSONPointer(tokens: ["a", "1"]), value: 2))
        #expect(applied2)
        let applied3 = value.apply(.add(path: JSONPointer(tokens: ["a", "-"]), value: 4))
        #expect(applied3)
        #expect(value == (try JSONValue(parsing: "{\"a\":[1,2,3,4]}")))
        let applied4 = value.apply(.remove(path: JSONPointer(tokens: ["a", "0"])))
        #expect(applied4)
        #expect(value == (try JSONValue(parsing: "{\"a\":[2,3,4]}")))
        let before = value
        for path in [["a", "3"], ["a", "01"], ["a", "-1"], ["b", "0"], ["a", "0", "x"]] {
            let applied5 = value.apply(.remove(path: JSONPointer(tokens: path)))
            #expect(!applied5, "\(path)")
            let applied6 = value.apply(.replace(path: JSONPointer(tokens: path), value: 0))
            #expect(!applied6, "\(path)")
        }
        let applied7 = value.apply(.add(path: JSONPointer(tokens: ["a", "4"]), value: 0))
        #expect(!applied7)
        let applied8 = value.apply(.remove(path: .root))
        #expect(!applied8)
        #expect(value == before)
    }
}
