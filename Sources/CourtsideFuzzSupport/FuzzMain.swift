import Foundation

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    private func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32
#endif

/// The `main` every fuzz executable shares.
///
/// Built with `-sanitize=fuzzer,address -DFUZZING` (scripts/fuzz), it hands control to libFuzzer's driver, which
/// calls `testOneInput` (the executable's `LLVMFuzzerTestOneInput`). Built plainly, it replays the files and
/// directories given as arguments through `check`: CI runs the seed corpora and every saved crasher that way.
/// (`-parse-as-library` cannot be used for these executables: SwiftPM links them with its own `main` symbol, see
/// docs/fuzzing.md.)
public enum FuzzMain {
    public static func run(
        name: String, testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32,
        check: ([UInt8]) -> Void
    ) -> Never {
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
            var files: [String] = []
            for argument in CommandLine.arguments.dropFirst() {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                    FileHandle.standardError.write(Data("no such file: \(argument)\n".utf8))
                    exit(2)
                }
                if isDirectory.boolValue {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
                    files += names.sorted().map { argument + "/" + $0 }
                } else {
                    files.append(argument)
                }
            }
            if files.isEmpty {
                FileHandle.standardError.write(Data("usage: \(name) FILE_OR_DIRECTORY...\n".utf8))
                exit(2)
            }
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                check(Array(data))
            }
            print("replayed \(files.count) inputs, all invariants held")
            exit(0)
        #endif
    }
}
