#if canImport(Glibc)
    import Glibc
#endif

/// How every harness reports a broken invariant: one line on standard error, then `abort()`, which libFuzzer
/// reports as a crash with the input saved and which fails a corpus replay.
public enum FuzzCheck {
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    public static func fail(_ message: String) -> Never {
        // write(2), not print: nothing buffered may be lost to the abort.
        let line = "invariant violated: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        abort()
    }

    /// Three split points chosen from the input's own bytes (so libFuzzer can steer them), sorted; none for
    /// inputs of two bytes or fewer.
    public static func splitPoints(for input: [UInt8]) -> [Int] {
        guard input.count > 2 else { return [] }
        let a = Int(input[0]) * 31 + Int(input[input.count - 1])
        return [a % input.count, (a * 7 + 13) % input.count, input.count / 2].sorted()
    }

    /// `input` cut at `splits` (ascending offsets; a split before the previous one is skipped), the last piece
    /// running to the end: how every harness feeds one input in pieces.
    public static func pieces(_ input: [UInt8], at splits: [Int]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        for end in splits + [input.count] where end >= start {
            pieces.append(input[start..<end])
            start = end
        }
        return pieces
    }
}
