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
}
