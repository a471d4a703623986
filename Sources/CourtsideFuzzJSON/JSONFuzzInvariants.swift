import CourtsideFuzzSupport
import CourtsideViewModels

/// What must hold for any input to the JSON parser, the JSON Patch diff and the command decoder; a violation
/// traps (libFuzzer reports it as a crash, the corpus replay fails). See docs/fuzzing.md.
enum JSONFuzzInvariants {
    static func check(_ input: [UInt8]) {
        checkParser(input)
        checkCommandDecoder(input)
        checkPatch(input)
    }

    /// A parsed value survives its canonical form, which is a fixed point; a refusal is the same every time.
    static func checkParser(_ input: [UInt8]) {
        let first = Result { () throws(JSONParseError) in try JSONValue(parsing: input) }
        let second = Result { () throws(JSONParseError) in try JSONValue(parsing: input) }
        FuzzCheck.require(first == second, "the same input parsed two ways")
        guard case .success(let value) = first else { return }
        let canonical = value.canonicalBytes
        guard let reparsed = try? JSONValue(parsing: canonical) else {
            FuzzCheck.fail("canonical bytes do not parse: \(String(decoding: canonical, as: UTF8.self))")
        }
        FuzzCheck.require(reparsed == value, "canonical bytes parse to another value")
        FuzzCheck.require(reparsed.canonicalBytes == canonical, "canonical form is not a fixed point")
    }

    /// The decoder answers every input, within its limits, the same from bytes as from the parsed value.
    static func checkCommandDecoder(_ input: [UInt8]) {
        let decoder = CommandDecoder()
        let fromBytes = decoder.decode(input)
        if case .failure(let rejection) = fromBytes, let id = rejection.id {
            FuzzCheck.require(id.rawValue.count <= decoder.maxCommandIDLength, "a rejection names an over-long id")
        }
        guard input.count <= decoder.maxCommandBytes,
            let json = try? JSONValue(parsing: input, maxDepth: 2)
        else { return }
        FuzzCheck.require(decoder.decode(json) == fromBytes, "bytes and parsed value decode differently")
    }

    /// Two values from one input (split at a point the first byte chooses): the diff from the first to the second,
    /// applied to the first, gives the second; a value's diff to itself is empty.
    static func checkPatch(_ input: [UInt8]) {
        guard let selector = input.first, input.count > 2 else { return }
        let body = input.dropFirst()
        let split = body.startIndex + Int(selector) % body.count
        guard let old = try? JSONValue(parsing: body[..<split]), let new = try? JSONValue(parsing: body[split...])
        else { return }
        FuzzCheck.require(old.patchOperations(to: old).isEmpty, "a value differs from itself")
        var patched = old
        for operation in old.patchOperations(to: new) {
            FuzzCheck.require(patched.apply(operation), "an operation of the diff does not apply: \(operation.json)")
        }
        FuzzCheck.require(patched == new, "the diff applied does not give the new value")
    }

}
