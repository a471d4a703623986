// Fuzz entry point for the HTTP request parser: libFuzzer calls `LLVMFuzzerTestOneInput`; a plain build replays
// files (FuzzMain). See docs/fuzzing.md.
import CourtsideFuzzSupport
import CourtsideHTTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    HTTPParserInvariants.check(input)
    return 0
}

FuzzMain.run(name: "courtside-fuzz-http", testOneInput: fuzzTestOneInput, check: HTTPParserInvariants.check)
