#if canImport(Glibc)
    import Glibc
#endif

/// What every fuzz harness's invariants share: how to report a violation, and where to split an input.
public enum FuzzCheck {
    /// Aborts with `message` unless `condition` holds: libFuzzer reports an abort as a crash and saves the input;
    /// the replay build fails the run.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    /// Writes `message` to standard error (without buffering, so it survives the abort) and aborts.
    public static func fail(_ message: String) -> Never {
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
}
