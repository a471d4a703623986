/// A small seeded random generator (SplitMix64, Steele, Lea and Flood 2014): fast, well mixed, and the same sequence
/// from the same seed on every run. Not for secrets. One copy for the whole package: the demo seeds it from the clock,
/// Redis reconnection backoff from a constant, the fuzzers from their input, and every random test from a seed it
/// names when it fails (`SeededGenerator` in the test support).
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
