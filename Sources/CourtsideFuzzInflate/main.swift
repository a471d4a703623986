// Fuzz entry point for the permessage-deflate inflater: libFuzzer calls `LLVMFuzzerTestOneInput`; a plain build
// replays files (FuzzMain). See docs/fuzzing.md.
import CourtsideFuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    InflateFuzzInvariants.check(input)
    return 0
}

FuzzMain.run(name: "courtside-fuzz-inflate", testOneInput: fuzzTestOneInput, check: InflateFuzzInvariants.check)
