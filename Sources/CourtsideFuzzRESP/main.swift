// Fuzz entry point for the RESP reply parser: libFuzzer calls `LLVMFuzzerTestOneInput`; a plain build replays
// files (FuzzMain). See docs/fuzzing.md.
import CourtsideFuzzSupport
import CourtsideRedis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    RESPParserInvariants.check(input)
    return 0
}

FuzzMain.run(name: "courtside-fuzz-resp", testOneInput: fuzzTestOneInput, check: RESPParserInvariants.check)
