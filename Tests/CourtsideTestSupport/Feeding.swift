import Testing

/// How a decoder test hands its input over: whole, byte by byte, or in seeded random chunks. A decoder must give the
/// same result every way (STYLE.md §14): the drip-feed helpers of the HTTP and RESP parser tests feed each input all
/// three ways and compare.
public enum Feeding: CustomStringConvertible, Sendable {
    case whole
    case byteByByte
    /// Chunks of 1 to 64 bytes, their lengths drawn from `seed`.
    case randomChunks(seed: UInt64)

    public var description: String {
        switch self {
        case .whole: "whole"
        case .byteByByte: "byte by byte"
        case .randomChunks(let seed): "random chunks (seed \(seed))"
        }
    }

    /// The chunks `input` is fed in.
    public func chunks(_ input: [UInt8]) -> [ArraySlice<UInt8>] {
        switch self {
        case .whole:
            return [input[...]]
        case .byteByByte:
            return input.indices.map { input[$0...$0] }
        case .randomChunks(let seed):
            var generator = SeededGenerator(seed: seed)
            var result: [ArraySlice<UInt8>] = []
            var start = 0
            while start < input.count {
                let length = Int.random(in: 1...max(1, min(64, input.count - start)), using: &generator)
                result.append(input[start..<start + length])
                start += length
            }
            return result
        }
    }
}

extension Feeding {
    /// Runs `parse` once per way of feeding, expects every outcome to equal the whole input's, and returns that one:
    /// the drip-feed check every decoder test shares.
    public static func sameOutcomeEveryWay<Outcome: Equatable>(
        sourceLocation: SourceLocation = #_sourceLocation, _ parse: (Feeding) -> Outcome
    ) -> Outcome {
        let whole = parse(.whole)
        for feeding in [Feeding.byteByByte, .randomChunks(seed: 1), .randomChunks(seed: 42), .randomChunks(seed: 7)] {
            #expect(parse(feeding) == whole, "\(feeding) differs from whole", sourceLocation: sourceLocation)
        }
        return whole
    }
}
