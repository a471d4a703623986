import CourtsideRandom

/// The package's SplitMix64 under the name the tests use: every random test (random games, random chunkings of a byte
/// stream) replays the same values from its seed, and a failure names the seed that reproduces it.
public typealias SeededGenerator = SplitMix64
