import CourtsideTestSupport
import Testing

@testable import CourtsideWebSocket

/// Validates `bytes` in the given chunks: the index of the first invalid byte, or nil and whether it ended on a
/// character boundary.
private func validate(_ bytes: [UInt8], chunking: Chunking) -> (invalidAt: Int?, complete: Bool) {
    var validator = UTF8Validator()
    var offset = 0
    for chunk in chunking.split(bytes) {
        if let index = validator.validate(chunk) { return (offset + index, false) }
        offset += chunk.count
    }
    return (nil, validator.isAtCharacterBoundary)
}

private func validateDripFed(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> (
    invalidAt: Int?, complete: Bool
) {
    let reference = validate(bytes, chunking: .allAtOnce)
    for chunking in Chunking.allCases.dropFirst() {
        let result = validate(bytes, chunking: chunking)
        #expect(
            result.invalidAt == reference.invalidAt && result.complete == reference.complete, "chunking: \(chunking)",
            sourceLocation: sourceLocation)
    }
    return reference
}

@Suite("UTF-8 validator")
struct UTF8ValidatorTests {
    @Test(
        "accepts valid text of every sequence length, split anywhere",
        arguments: [
            "", "Hello", "κόσμε", "Größe €100", "𝄞 music", "日本語テキスト",
            "\u{10FFFF}\u{FFFF}\u{E000}\u{D7FF}\u{80}\u{7FF}\u{800}",
            String(repeating: "ascii run long enough for the word loop ", count: 5) + "é",
        ])
    func valid(text: String) {
        let result = validateDripFed(Array(text.utf8))
        #expect(result.invalidAt == nil)
        #expect(result.complete)
    }

    @Test("accepts every scalar on a boundary of the encoding's ranges")
    func boundaryScalars() {
        for value: UInt32 in [
            0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xCFFF, 0xD000, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x3FFFF,
            0x40000, 0xFFFFF, 0x100000, 0x10FFFF,
        ] {
            let bytes = Array(String(Character(Unicode.Scalar(value)!)).utf8)
            #expect(validateDripFed(bytes).invalidAt == nil, "U+\(String(value, radix: 16))")
        }
    }

    @Test(
        "fails at the first byte that cannot be valid",
        arguments: [
            ([0x80], 0),  // lone continuation byte
            ([0x41, 0xC0, 0x80], 1),  // C0: overlong lead, never valid
            ([0xC1, 0xBF], 0),  // C1: overlong lead
            ([0xE0, 0x80, 0x80], 1),  // overlong three-byte form
            ([0xE0, 0x9F, 0xBF], 1),  // overlong three-byte form (U+07FF)
            ([0xF0, 0x8F, 0xBF, 0xBF], 1),  // overlong four-byte form (U+FFFF)
            ([0xED, 0xA0, 0x80], 1),  // U+D800, a surrogate
            ([0xED, 0xBF, 0xBF], 1),  // U+DFFF, a surrogate
            ([0xF4, 0x90, 0x80, 0x80], 1),  // U+110000, above the last scalar
            ([0xF5, 0x80, 0x80, 0x80], 0),  // F5: never valid
            ([0xFF], 0),
            // Autobahn 6.4.x: "κόσμε" then a surrogate.
            ([0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65], 12),
            ([0xE2, 0x82, 0x41], 2),  // a sequence cut short by ASCII
            ([0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0xFE], 9),  // after the word-at-a-time run
        ] as [([UInt8], Int)])
    func invalid(bytes: [UInt8], index: Int) {
        #expect(validateDripFed(bytes).invalidAt == index)
    }

    @Test(
        "reports a sequence left open at the end as incomplete, not invalid",
        arguments: [[0xE2, 0x82], [0xF0, 0x9D, 0x84], [0xC3]] as [[UInt8]])
    func incomplete(bytes: [UInt8]) {
        let result = validateDripFed(bytes)
        #expect(result.invalidAt == nil)
        #expect(!result.complete)
    }

    @Test("stays failed until reset")
    func staysFailed() {
        var validator = UTF8Validator()
        #expect(validator.validate([0xFF] as [UInt8]) == 0)
        #expect(validator.hasFailed)
        #expect(validator.validate(Array("fine".utf8)) == 0)
        validator.reset()
        #expect(validator.validate(Array("fine".utf8)) == nil)
        #expect(validator.isAtCharacterBoundary)
    }

    @Test("agrees with the standard library on random bytes")
    func agreesWithStandardLibrary() {
        var generator = SeededGenerator(seed: 2024)
        for _ in 0..<2000 {
            let length = Int.random(in: 0...12, using: &generator)
            // Bias toward the bytes that matter: leads, continuations and the edges of the ranges.
            let palette: [UInt8] = [
                0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xF0, 0xF1,
                0xF4, 0xF5, 0xFF,
            ]
            let bytes = (0..<length).map { _ in palette.randomElement(using: &generator)! }
            var validator = UTF8Validator()
            let ours = validator.validate(bytes) == nil && validator.isAtCharacterBoundary
            let standard = String(validating: bytes, as: UTF8.self) != nil
            #expect(ours == standard, "\(bytes)")
        }
    }
}
