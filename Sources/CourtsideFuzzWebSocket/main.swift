// Fuzz entry point for the WebSocket frame decoder and connection state machine.
//
// Built with `-sanitize=fuzzer,address -DFUZZING` (see scripts/fuzz), libFuzzer drives `LLVMFuzzerTestOneInput`.
// Built plainly, the executable replays the files and directories given as arguments: CI replays the seed corpus
// and every saved crasher through it (scripts/ci.d/websocket-fuzz-replay.sh). See docs/fuzzing-websocket.md.
import CourtsideWebSocket
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    WebSocketFuzzInvariants.check(input)
    return 0
}

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzTestOneInput))
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
        FileHandle.standardError.write(Data("usage: courtside-fuzz-websocket FILE_OR_DIRECTORY...\n".utf8))
        exit(2)
    }
    for file in files {
        guard let data = FileManager.default.contents(atPath: file) else { continue }
        WebSocketFuzzInvariants.check(Array(data))
    }
    print("replayed \(files.count) inputs, all invariants held")
#endif
